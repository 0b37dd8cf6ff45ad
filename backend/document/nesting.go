package document

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MaxNesting is how deep lists and block quotes may nest in a book. Goldmark
// and the linear view spend time and memory in proportion to the depth for
// every line and item inside (issue 32: a 200 KB line `- - - … deep` of
// 100,000 levels ran 25 minutes and took 4.3 GB); no book nests so deep, so
// a deeper container is not opened, the parse stays linear, and opening the
// book is refused with where and why (NestingError).
const MaxNesting = 32

// deepKey marks in a parse's context the first place a container would have
// gone deeper than MaxNesting (its byte offset).
var deepKey = parser.NewContextKey()

// bounded is a container's block parser that opens nothing deeper than
// MaxNesting lists and block quotes.
type bounded struct{ parser.BlockParser }

func (b bounded) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	depth := 0
	for n := parent; n != nil; n = n.Parent() {
		switch n.Kind() {
		case ast.KindListItem, ast.KindBlockquote:
			depth++
		}
	}
	if depth >= MaxNesting {
		if pc.Get(deepKey) == nil {
			_, seg := reader.Position()
			pc.Set(deepKey, seg.Start)
		}
		return nil, parser.NoChildren
	}
	return b.BlockParser.Open(parent, reader, pc)
}

// blockParsers are goldmark's block parsers (parser.DefaultBlockParsers, in
// its priorities) with the two containers bounded.
func blockParsers() []util.PrioritizedValue {
	return []util.PrioritizedValue{
		util.Prioritized(parser.NewSetextHeadingParser(), 100),
		util.Prioritized(parser.NewThematicBreakParser(), 200),
		util.Prioritized(bounded{parser.NewListParser()}, 300),
		util.Prioritized(parser.NewListItemParser(), 400),
		util.Prioritized(parser.NewCodeBlockParser(), 500),
		util.Prioritized(parser.NewATXHeadingParser(), 600),
		util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
		util.Prioritized(bounded{parser.NewBlockquoteParser()}, 800),
		util.Prioritized(parser.NewHTMLBlockParser(), 900),
		util.Prioritized(parser.NewParagraphParser(), 1000),
	}
}

// NestingError says, for a document whose lists or block quotes nest deeper
// than MaxNesting, where (name's line and column) and what is allowed; nil
// for any other document.
func (d *Document) NestingError(name string) error {
	deep := d.deep - 1
	if deep < 0 || deep > len(d.src) {
		return nil
	}
	ls := lineStartBefore(d.src, deep)
	return fmt.Errorf("%w: %s nests lists and block quotes more than %d levels deep at line %d, column %d; Waymark opens at most %d levels: remove some of the list markers (-, *, +, 1.) or quote marks (>) there",
		ErrBadFile, name, MaxNesting, LineBreaks(d.src[:deep])+1, len([]rune(string(d.src[ls:deep])))+1, MaxNesting)
}

func lineStartBefore(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' && src[off-1] != '\r' {
		off--
	}
	return off
}

// MaxRefRun is how many link reference definitions may follow one another
// with no blank line between: goldmark reads such a run in time that grows
// with its square (16,000 took 2.3 s).
const MaxRefRun = 4000

// linkScanBudget is how many bytes goldmark may scan for the destinations
// of inline links (`](`) beyond a few per byte of the book: an unclosed
// destination is read to the next space (or, after `](<`, to the line's
// end), so a long run like `[a]([a]([a](…` costs its length squared
// (32 KB took 2.6 s).
func linkScanBudget(size int) int { return 1<<24 + 16*size }

// CheckHazards refuses, before any parse, what would make goldmark's parse
// grow with the square of the book: a very long run of link reference
// definitions, or many unclosed inline link destinations in one long run
// of text. The error says where and what is allowed. It reads src once.
func CheckHazards(name string, src []byte) error {
	refRun, refStart := 0, 0
	scan := 0
	for ls := 0; ls < len(src); {
		le := ls
		for le < len(src) && src[le] != '\n' && src[le] != '\r' {
			le++
		}
		line := src[ls:le]
		// Link reference definitions in a row.
		switch {
		case len(bytes.TrimSpace(line)) == 0:
			refRun = 0
		case refDefStart(line):
			if refRun == 0 {
				refStart = ls
			}
			refRun++
			if refRun > MaxRefRun {
				return fmt.Errorf("%w: %s has more than %d link reference definitions ([label]: address) in a row from line %d, with no blank line between; Waymark reads at most %d in a row: put a blank line between groups of them",
					ErrBadFile, name, MaxRefRun, LineBreaks(src[:refStart])+1, MaxRefRun)
			}
		}
		// Inline link destinations: what goldmark scans for each.
		for i := 0; i+1 < len(line); i++ {
			if line[i] != ']' || line[i+1] != '(' {
				continue
			}
			j := i + 2
			if j < len(line) && line[j] == '<' {
				scan += len(line) - j
			} else {
				for j < len(line) && line[j] != ' ' && line[j] != '\t' {
					j++
				}
				scan += j - i
			}
			if scan > linkScanBudget(len(src)) {
				return fmt.Errorf("%w: %s has too many unclosed link addresses ](… in long runs of text without spaces, up to line %d; Waymark reads at most %d such bytes in a book of this size: add spaces or close the links' parentheses",
					ErrBadFile, name, LineBreaks(src[:ls])+1, linkScanBudget(len(src)))
			}
		}
		ls = le + 1
		if le+1 < len(src) && src[le] == '\r' && src[le+1] == '\n' {
			ls++
		}
	}
	return nil
}

// refDefStart reports whether a line may start a link reference definition:
// up to three spaces, "[", a label, "]:".
func refDefStart(line []byte) bool {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '[' {
		return false
	}
	k := bytes.Index(line[i:], []byte("]:"))
	return k > 1
}
