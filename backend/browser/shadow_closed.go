package browser

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
)

// giveClosedRoots hands the overlay of w the closed shadow roots it cannot
// see: those of the hosts marks.js marked (the page called attachShadow with
// mode "closed") and of the custom elements the last list queued (roots the
// parser attached from declarative shadow DOM, which no script sees). CDP sees
// closed roots (DOM.describeNode lists them), and DOM.resolveNode makes each
// one an object of the overlay's isolated world. Everything runs in the
// frame's own session (an out-of-process frame's, or the page's). It returns
// how many roots were handed over; callers ask only when the overlay says
// there is something to hand over, so pages without shadow hosts pay nothing.
func (s *Session) giveClosedRoots(ctx context.Context, w *world) int {
	p := w.p.Context(ctx)
	total := 0
	for round := 0; round < 4; round++ {
		res, err := proto.RuntimeCallFunctionOn{
			FunctionDeclaration: `function() { const W = globalThis.__waymark; return W && W.closedHosts ? W.closedHosts() : []; }`,
			ExecutionContextID:  w.ctxID, ObjectGroup: objectGroup,
		}.Call(p)
		if err != nil || res.Result.ObjectID == "" {
			return total
		}
		props, err := proto.RuntimeGetProperties{ObjectID: res.Result.ObjectID, OwnProperties: true}.Call(p)
		if err != nil {
			return total
		}
		given := 0
		for _, pr := range props.Result {
			if pr.Value == nil || pr.Value.ObjectID == "" || pr.Value.Subtype != proto.RuntimeRemoteObjectSubtypeNode {
				continue
			}
			host := pr.Value.ObjectID
			node, err := proto.DOMDescribeNode{ObjectID: host, Depth: gsonInt(0)}.Call(p)
			if err != nil || node.Node == nil {
				continue
			}
			var root *proto.DOMNode
			for _, r := range node.Node.ShadowRoots {
				if r.ShadowRootType == proto.DOMShadowRootTypeClosed {
					root = r
					break
				}
			}
			if root == nil {
				continue
			}
			ro, err := proto.DOMResolveNode{BackendNodeID: root.BackendNodeID, ExecutionContextID: w.ctxID, ObjectGroup: objectGroup}.Call(p)
			if err != nil || ro.Object == nil {
				continue
			}
			_, err = proto.RuntimeCallFunctionOn{
				FunctionDeclaration: `function(host, root) { return globalThis.__waymark.closedRoot(host, root); }`,
				ExecutionContextID:  w.ctxID,
				Arguments:           []*proto.RuntimeCallArgument{{ObjectID: host}, {ObjectID: ro.Object.ObjectID}},
			}.Call(p)
			if err == nil {
				given++
			}
		}
		total += given
		if given == 0 {
			return total
		}
	}
	return total
}
