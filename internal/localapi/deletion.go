package localapi

import (
	"net/http"
	"slices"
)

// destroyingStatus is what a playground shows while its containers are torn
// down: the documented statuses have no "destroying", and to a client the
// playground is on its way down like any other stop.
const destroyingStatus = "stopping"

// quiescent statuses have no containers running, so there is nothing to
// tear down and a delete is immediate.
var quiescent = map[string]bool{"stopped": true, "error": true, "failed": true, "destroyed": true}

// deletePlayground answers 204 for a playground with nothing running, and
// 202 otherwise: the containers are stopped in the background and the
// playground is removed when that operation succeeds. Deleting again while
// that runs answers the same operation's handle, since the outcome the
// caller asked for is already on its way.
func (s *Server) deletePlayground(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	busy := rc.st.activeAction(pg.ID)
	if busy != nil && busy.Kind == opDestroy {
		return rc.accepted(busy), nil
	}
	if busy == nil && quiescent[pg.Status] {
		rc.st.removePlayground(pg)
		rc.emit("playground.destroyed", "Playground", pg.ID, rc.st.playgroundView(pg, rc.now))
		return newReply(http.StatusNoContent), nil
	}
	op := rc.newOp(opDestroy, destroyTime)
	op.PlaygroundID, op.MarqueeID = pg.ID, pg.MarqueeID
	if busy != nil {
		// The deletion supersedes the action: it will never complete.
		busy.Done, busy.DoneAt = true, rc.now
		busy.fail(codeConflict, "cancelled: playground "+pg.Name+" is being deleted", map[string]any{
			"reason": "playground_deleted", "playground_id": pg.ID, "delete_request_id": op.ID,
		})
	}
	pg.UpdatedAt = rc.now
	return rc.accepted(op), nil
}

// refuseIfDeleting answers 409 for a change to a playground being deleted,
// as an action gets while another operation runs.
func (rc *reqCtx) refuseIfDeleting(pg *playground) error {
	busy := rc.st.activeAction(pg.ID)
	if busy == nil || busy.Kind != opDestroy {
		return nil
	}
	return conflict("playground "+pg.Name+" is being deleted", "operation_in_progress",
		map[string]any{"request_id": busy.ID, "action_type": busy.Kind})
}

func (st *state) removePlayground(pg *playground) {
	st.Playgrounds = slices.DeleteFunc(st.Playgrounds, func(p *playground) bool { return p == pg })
}
