package browser

import (
	"context"
	"sync"
	"time"
)

// Phases is where a list's time went, step by step: for a bench that puts
// one in the context of its calls (context.WithValue(ctx, PhasesKey{}, p);
// waymark-bench browser --vs-playwright prints them), and reads D once the
// calls have returned. No answer carries them, and a list without one in
// its context measures nothing (the overlay times its walk only when
// asked). (A key and a field, not functions: no build of the product calls
// them, so they must not be functions the product holds unreached.)
type Phases struct {
	mu sync.Mutex
	D  map[string]time.Duration
}

// PhasesKey is the context key of a *Phases.
type PhasesKey struct{}

// Names of the phases a list records.
const (
	PhaseWait     = "wait for a loading page"
	PhaseBanners  = "banner pass (first list on a host)"
	PhaseLook     = "calls into the page (CDP round trips, the walk in them)"
	PhaseJSWalk   = "in the page: tree walk and candidate tests"
	PhaseJSGeom   = "in the page: geometry, visibility, cover"
	PhaseJSLabels = "in the page: labels, role, value, href, row"
	PhaseJSJoin   = "in the page: joining the rows"
	PhaseDecode   = "Go: decoding the page's answer"
	PhaseItems    = "Go: numbering the items"
	PhaseFrames   = "frames: finding and entering them"
	PhaseOverlay  = "drawing the overlay"
	PhaseJSTotal  = "in the page: the whole list call"
)

func phasesOf(ctx context.Context) *Phases {
	p, _ := ctx.Value(PhasesKey{}).(*Phases)
	return p
}

// add adds d to phase name (nil p: nothing).
func (p *Phases) add(name string, d time.Duration) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.D == nil {
		p.D = map[string]time.Duration{}
	}
	p.D[name] += d
}

// since adds the time since t0 to phase name of ctx's Phases, if any.
func since(ctx context.Context, name string, t0 time.Time) {
	if p := phasesOf(ctx); p != nil {
		p.add(name, time.Since(t0))
	}
}

// jsTiming is the overlay's account of its list call (ms), given only when
// the list was asked for it (a Phases in the context).
type jsTiming struct {
	Total  float64 `json:"total"`
	Geom   float64 `json:"geom"`
	Labels float64 `json:"labels"`
	Join   float64 `json:"join"`
}

// record adds the overlay's timing to p: the walk is its total less the
// parts measured inside it.
func (t *jsTiming) record(p *Phases) {
	if t == nil || p == nil {
		return
	}
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	p.add(PhaseJSTotal, ms(t.Total))
	p.add(PhaseJSGeom, ms(t.Geom))
	p.add(PhaseJSLabels, ms(t.Labels))
	p.add(PhaseJSJoin, ms(t.Join))
	p.add(PhaseJSWalk, ms(max(0, t.Total-t.Geom-t.Labels-t.Join)))
}
