package document

import "strings"

// Place names where item i is, as an author reads it: the headings that
// contain it, outermost first ("BOOK ONE: 1805, CHAPTER IX"; «Том 1, Часть
// первая, VI»), and "" before the first heading.
func (d *Document) Place(i int) string {
	var path []string
	lvl := 1 << 30
	for j := i; j >= 0; j-- {
		it := &d.items[j]
		if it.Type == Heading && it.Level < lvl {
			path = append(path, strings.TrimSpace(d.Text(j)))
			lvl = it.Level
			if lvl <= 1 {
				break
			}
		}
	}
	for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
		path[a], path[b] = path[b], path[a]
	}
	return strings.Join(path, ", ")
}
