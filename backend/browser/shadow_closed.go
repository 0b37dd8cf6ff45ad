package browser

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
)

// giveClosedRoots hands the overlay of w the closed shadow roots of the
// hosts marks.js marked: CDP sees closed roots (DOM.describeNode), and
// DOM.resolveNode makes each one an object of the overlay's isolated world.
// It costs one call when a document has none.
func (s *Session) giveClosedRoots(ctx context.Context, w *world) {
	p := s.page.Context(ctx)
	for round := 0; round < 4; round++ {
		res, err := proto.RuntimeCallFunctionOn{
			FunctionDeclaration: `function() { const W = globalThis.__waymark; return W && W.closedHosts ? W.closedHosts() : []; }`,
			ExecutionContextID:  w.ctxID, ObjectGroup: objectGroup,
		}.Call(p)
		if err != nil || res.Result.ObjectID == "" {
			return
		}
		props, err := proto.RuntimeGetProperties{ObjectID: res.Result.ObjectID, OwnProperties: true}.Call(p)
		if err != nil {
			return
		}
		given := 0
		for _, pr := range props.Result {
			if pr.Value == nil || pr.Value.ObjectID == "" || pr.Value.Subtype != proto.RuntimeRemoteObjectSubtypeNode {
				continue
			}
			host := pr.Value.ObjectID
			node, err := proto.DOMDescribeNode{ObjectID: host, Depth: gsonInt(0)}.Call(p)
			if err != nil || node.Node == nil || len(node.Node.ShadowRoots) == 0 {
				continue
			}
			root, err := proto.DOMResolveNode{BackendNodeID: node.Node.ShadowRoots[0].BackendNodeID, ExecutionContextID: w.ctxID, ObjectGroup: objectGroup}.Call(p)
			if err != nil || root.Object == nil {
				continue
			}
			_, err = proto.RuntimeCallFunctionOn{
				FunctionDeclaration: `function(host, root) { return globalThis.__waymark.closedRoot(host, root); }`,
				ExecutionContextID:  w.ctxID,
				Arguments:           []*proto.RuntimeCallArgument{{ObjectID: host}, {ObjectID: root.Object.ObjectID}},
			}.Call(p)
			if err == nil {
				given++
			}
		}
		if given == 0 {
			return
		}
	}
}
