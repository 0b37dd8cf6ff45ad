package author

import (
	"strings"
	"testing"
)

// A find that read all it was to read and found nothing says so, by the
// cursor agent's ReadToEnd, not by the words of its reason (issue 36 point
// 2: "no mention of", "not found" and "nothing to read" were matched).
func TestFindNothingSaysReadToTheEnd(t *testing.T) {
	book := "# Chapter 1\n\nPierre came in.\n\n# Chapter 2\n\nAndrew left.\n\n# Глава 3\n\nПьер вошёл.\n"
	for _, c := range []struct{ cmd, want string }{
		{`find the first mention of "Napoleon"`, `No mention of "Napoleon" found (read to the end of the book).`},
		{`find the first mention of "Napoleon" in chapter 2`, `(read to the end of the range).`},
		{"найди первое упоминание «Наполеон»", "Упоминаний «Наполеон» не найдено (книга прочитана до конца)."},
	} {
		e := newEnv(t, book, nil)
		// Nothing found: the command fails, with the answer as its error.
		answer, err := runOne(t, e, &CommandAgent{}, c.cmd)
		if err != nil {
			answer = err.Error()
		}
		if !strings.Contains(answer, c.want) {
			t.Errorf("%s:\n got %s\nwant … %s", c.cmd, answer, c.want)
		}
	}
}

// The answer follows ReadToEnd whatever the reason's words: a reworded
// reason is still "read to the end", and a reason that only sounds like
// one (a model's failure) is said as it is.
func TestAnswerFindByReadToEnd(t *testing.T) {
	c := &CommandAgent{}
	for _, r := range []struct {
		res  CursorAgentResult
		ru   bool
		sp   span
		want string
	}{
		{CursorAgentResult{ReadToEnd: true, Reason: "the model found no such passage anywhere"}, false, span{Whole: true}, `No mention of "Napoleon" found (read to the end of the book).`},
		{CursorAgentResult{ReadToEnd: true, Reason: "nothing left"}, false, span{Where: "CHAPTER 2"}, `No mention of "Napoleon" found in CHAPTER 2 (read to the end of the range).`},
		{CursorAgentResult{ReadToEnd: true, Reason: "not found"}, true, span{Whole: true}, "Упоминаний «Napoleon» не найдено (книга прочитана до конца)."},
		{CursorAgentResult{Reason: "not found: the model failed"}, false, span{Whole: true}, `No mention of "Napoleon" found (not found: the model failed).`},
	} {
		if got := c.answerFind(r.res, Task{Subject: "Napoleon", Russian: r.ru}, false, r.sp); got != r.want {
			t.Errorf("%+v:\n got %s\nwant %s", r.res, got, r.want)
		}
	}
}
