package localapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
)

// Error codes of the Fibe API (docs/api.md).
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
	codeForbidden    = "FORBIDDEN"
	codeInvalidSort  = "INVALID_SORT"
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

// apiError is a request the API refuses: the HTTP status, the error
// envelope's code, message and details, and the headers that go with it
// (Retry-After, WWW-Authenticate). Handlers and the helpers they call
// return it as an ordinary error; Server.errorReply turns it into the
// answer.
type apiError struct {
	status  int
	code    string
	message string
	details map[string]any
	header  http.Header
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func newAPIError(status int, code, message string, details map[string]any) *apiError {
	return &apiError{status: status, code: code, message: message, details: details}
}

// withHeader adds a header to the answer.
func (e *apiError) withHeader(key, value string) *apiError {
	if e.header == nil {
		e.header = http.Header{}
	}
	e.header.Set(key, value)
	return e
}

// envelope is the answer: the status, the error envelope and the headers.
func (e *apiError) envelope() *reply {
	r := jsonReply(e.status, errorBody{Error: errorObject{Code: e.code, Message: e.message, Details: e.details}})
	for k, v := range e.header {
		r.header[k] = v
	}
	return r
}

// errInternal is what a failure inside the emulator answers.
var errInternal = newAPIError(http.StatusInternalServerError, codeInternal, "internal error", nil)

// errorReply is the one place an error becomes an answer: an apiError its
// envelope, anything else (a bug) a logged 500.
func (s *Server) errorReply(err error, rid string) *reply {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.envelope()
	}
	s.cfg.Logf("localapi: error serving request %s: %v", rid, err)
	return errInternal.envelope()
}

func notFound(what string) error {
	return newAPIError(http.StatusNotFound, codeNotFound, what+" not found", nil)
}

// invalid is a 422 with Rails-style field errors: {"name": ["can't be blank"]}.
func invalid(field, problem string) error {
	return newAPIError(http.StatusUnprocessableEntity, codeValidation, field+" "+problem,
		map[string]any{field: []string{problem}})
}

func badRequest(message string) error {
	return newAPIError(http.StatusBadRequest, codeBadRequest, message, nil)
}

func conflict(message, reason string, extra map[string]any) error {
	details := map[string]any{"reason": reason}
	for k, v := range extra {
		details[k] = v
	}
	return newAPIError(http.StatusConflict, codeConflict, message, details)
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
