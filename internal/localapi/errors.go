package localapi

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// Error codes of the Fibe API (fibe-api.md).
const (
	codeUnauthorized = "UNAUTHORIZED"
	codeNotFound     = "RESOURCE_NOT_FOUND"
	codeConflict     = "CONFLICT"
	codeValidation   = "VALIDATION_FAILED"
	codeBadRequest   = "BAD_REQUEST"
	codeNotFunded    = "MARQUEE_NOT_FUNDED"
	codeRateLimited  = "RATE_LIMITED"
	codeInternal     = "INTERNAL_ERROR"
	codeBuildFailed  = "PLAYGROUND_BUILD_FAILED"
)

// reply is a finished answer, kept as bytes so it can be cached for
// idempotent replay and served over HTTP or the in-process transport alike.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func newReply(status int) *reply {
	return &reply{status: status, header: http.Header{}}
}

func jsonReply(status int, v any) *reply {
	r := newReply(status)
	if v == nil {
		return r
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only our own view types are encoded; failing here is a bug.
		panic("localapi: encode reply: " + err.Error())
	}
	r.header.Set("Content-Type", "application/json; charset=utf-8")
	r.body = buf.Bytes()
	return r
}

type errorBody struct {
	Error errorObject `json:"error"`
}

type errorObject struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func errReply(status int, code, message string, details map[string]any) *reply {
	return jsonReply(status, errorBody{Error: errorObject{Code: code, Message: message, Details: details}})
}

func notFound(what string) *reply {
	return errReply(http.StatusNotFound, codeNotFound, what+" not found", nil)
}

// invalid is a 422 with Rails-style field errors: {"name": ["can't be blank"]}.
func invalid(field, problem string) *reply {
	return errReply(http.StatusUnprocessableEntity, codeValidation, field+" "+problem,
		map[string]any{field: []string{problem}})
}

func badRequest(message string) *reply {
	return errReply(http.StatusBadRequest, codeBadRequest, message, nil)
}

func conflict(message, reason string, extra map[string]any) *reply {
	details := map[string]any{"reason": reason}
	for k, v := range extra {
		details[k] = v
	}
	return errReply(http.StatusConflict, codeConflict, message, details)
}

// htmlReply imitates what a proxy in front of the API answers: not JSON.
func htmlReply(status int) *reply {
	r := newReply(status)
	text := http.StatusText(status)
	r.header.Set("Content-Type", "text/html")
	r.body = []byte("<html>\r\n<head><title>" + itoa(status) + " " + text + "</title></head>\r\n<body>\r\n<center><h1>" +
		itoa(status) + " " + text + "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
	return r
}
