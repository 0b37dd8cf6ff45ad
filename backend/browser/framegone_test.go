package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFrameGoneMarksTheNumberingStale: when the frame of a numbered element
// went away between the list and the call (here the element's frame is one
// the page does not have), clicking, scrolling to it and giving it a file
// each answer that the numbering is stale because a frame went away, and
// mark it stale, so that no other number of that list is acted on until
// the page is listed again (issue 36 point 6: the upload did not mark it).
func TestFrameGoneMarksTheNumberingStale(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		call func(ctx context.Context, s *Session, index int) error
	}{
		{"click", func(ctx context.Context, s *Session, index int) error {
			_, err := s.Act(ctx, ActOptions{Index: index, Action: "click"})
			return err
		}},
		{"scroll to it", func(ctx context.Context, s *Session, index int) error {
			_, err := s.Scroll(ctx, ScrollOptions{Index: index})
			return err
		}},
		{"upload", func(ctx context.Context, s *Session, index int) error {
			_, err := s.Upload(ctx, index, []string{file})
			return err
		}},
	}
	s := newSession(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			navigate(t, s, oopURL(""))
			r := mustList(t, s, ListOptions{})
			field := numberOf(t, r, "Mid field")
			n, err := s.validate(ctx)
			if err != nil {
				t.Fatal(err)
			}
			gone := *n.items[field-1].frame
			gone.frameID = "gone"
			n.items[field-1].frame = &gone

			err = tc.call(ctx, s, field)
			var se *StaleError
			if !errors.As(err, &se) || se.Reason != frameGone {
				t.Fatalf("%s on an element whose frame went away: err = %v, want the numbering stale because %s", tc.name, err, frameGone)
			}
			if got := n.staleReason(); got != frameGone {
				t.Fatalf("numbering stale reason %q after %s, want %q", got, tc.name, frameGone)
			}
			if _, err := s.Act(ctx, ActOptions{Index: numberOf(t, r, "Top start"), Action: "click"}); !errors.As(err, &se) {
				t.Fatalf("a number of the same list acted on after the frame went away: err = %v, want the numbering stale", err)
			}
		})
	}
}
