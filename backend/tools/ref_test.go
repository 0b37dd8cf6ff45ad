package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type refIn struct {
	Text  string `json:"text"`
	Times int    `json:"times,omitempty"`
}

type refOut struct {
	Said string `json:"said"`
}

var echoRef = RefTo[refIn, refOut]("Echo")

func refRegistry(t *testing.T) *Registry {
	t.Helper()
	r := New()
	r.MustRegister(echoRef.Func("Says the text back.", func(_ context.Context, a refIn) (refOut, error) {
		if a.Times < 0 {
			return refOut{}, errors.New("times must be 0 or more")
		}
		return refOut{Said: strings.Repeat(a.Text, max(a.Times, 1))}, nil
	}))
	return r
}

func TestRefCallsThroughTheRegistry(t *testing.T) {
	r := refRegistry(t)
	ctx := context.Background()
	tests := []struct {
		name    string
		ref     Ref[refIn, refOut]
		in      refIn
		want    string
		wantErr string
	}{
		{"typed arguments and result", echoRef, refIn{Text: "ab", Times: 2}, "abab", ""},
		{"the tool's own error", echoRef, refIn{Text: "a", Times: -1}, "", "times must be 0 or more"},
		{"empty text said back empty", echoRef, refIn{Text: ""}, "", ""},
		{"unknown tool", RefTo[refIn, refOut]("Nope"), refIn{Text: "a"}, "", `unknown tool "Nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.ref.Call(ctx, r, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Said != tt.want {
				t.Fatalf("said %q, want %q", got.Said, tt.want)
			}
		})
	}
}

func TestRefRefusesDriftedTypes(t *testing.T) {
	r := refRegistry(t)
	type otherOut struct{ N int }
	_, err := RefTo[refIn, otherOut]("Echo").Call(context.Background(), r, refIn{Text: "a"})
	if !errors.Is(err, ErrWrongRef) {
		t.Fatalf("error %v, want ErrWrongRef", err)
	}
	type otherIn struct {
		Text string `json:"text"`
	}
	_, err = RefTo[otherIn, refOut]("Echo").Call(context.Background(), r, otherIn{Text: "a"})
	if !errors.Is(err, ErrWrongRef) {
		t.Fatalf("error %v, want ErrWrongRef", err)
	}
}
