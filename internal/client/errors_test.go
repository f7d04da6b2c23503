package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fibegg/fibe/internal/reliability"
)

func TestNonJSONBodiesBecomeOneLineTypedErrors(t *testing.T) {
	html := "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>" + strings.Repeat("<p>nginx</p>\n", 20000) + "</body></html>"
	cases := []struct {
		name        string
		status      int
		ctype, body string
		code, msg   string
	}{
		{"html 502", 502, "text/html", html, CodeInternal, "HTTP 502 Bad Gateway (non-JSON body: text/html)"},
		{"empty 404", 404, "", "", CodeNotFound, "HTTP 404 Not Found (empty body)"},
		{"truncated 422", 422, "application/json", `{"error": {"code": "VALIDATION_FAIL`, CodeValidation, "HTTP 422 Unprocessable Entity (malformed JSON body)"},
		{"envelope without message", 402, "application/json", `{"error":{"code":"MARQUEE_NOT_FUNDED"}}`, CodeNotFunded, "HTTP 402 Payment Required"},
		{"multi-line message", 400, "application/json", `{"error":{"code":"BAD_REQUEST","message":"line one\nline two\r\n\tthree"}}`, CodeBadRequest, "line one line two three"},
		{"string error", 403, "application/json", `{"error":"nope"}`, CodeForbidden, "nope"},
		{"odd code", 500, "application/json", `{"error":{"code":"<script>","message":"x"}}`, CodeInternal, "x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			c, _ := newTestClient(t, srv.URL, func(o *Options) { o.Policy.MaxRetries = reliability.NoRetries })
			_, _, err := c.Me(ctxT(t))
			e := mustError(t, err, tc.code)
			if e.Message != tc.msg || e.Status != tc.status || strings.ContainsAny(e.Error(), "\n\r<") {
				t.Fatalf("message %q (%d), want %q", e.Message, e.Status, tc.msg)
			}
		})
	}
}

func TestInvalidSuccessBodiesAndSizeLimit(t *testing.T) {
	big := strings.Repeat("x", maxBodyBytes+10)
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch r.URL.Path {
		case "/api/me":
			w.WriteHeader(200)
			_, _ = w.Write([]byte("<html>ok</html>"))
		default:
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"data":"` + big + `"}`))
		}
	})
	// 16 MiB under the race detector on a loaded machine can take longer
	// than the helper's 5 s attempt timeout; the size is what is tested.
	c, _ := newTestClient(t, srv.URL, func(o *Options) {
		o.Policy.MaxRetries = reliability.NoRetries
		o.Policy.AttemptTimeout = time.Minute
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, _, err := c.Me(ctx)
	if e := mustError(t, err, CodeInvalidResponse); e.Status != 200 || strings.Contains(e.Message, "html") {
		t.Fatalf("%+v", e)
	}
	_, _, err = c.Playgrounds.List(ctx, ListOptions{})
	if e := mustError(t, err, CodeInvalidResponse); !strings.Contains(e.Message, "larger than") {
		t.Fatalf("%+v", e)
	}
}

func TestPredicatesAndUnwrap(t *testing.T) {
	cause := errors.New("boom")
	e := &Error{Code: CodeNotFound, Message: "m", Err: cause}
	wrapped := errors.Join(errors.New("ctx"), e)
	if !IsNotFound(wrapped) || hasCode(wrapped, CodeUnauthorized) || !errors.Is(e, cause) {
		t.Fatal("predicates do not see through wrapping")
	}
	if (&Error{Code: CodeNotFunded}).Error() != "MARQUEE_NOT_FUNDED: " || !hasCode(&Error{Code: CodeNotFunded}, CodeNotFunded) {
		t.Fatal("not funded")
	}
	if hasCode(errors.New("plain"), "") || IsOutcomeUnknown(errors.New("plain")) {
		t.Fatal("a plain error is taken for an *Error")
	}
}

func FuzzParseErrorBody(f *testing.F) {
	f.Add(502, "text/html", []byte("<html><body>Bad Gateway</body></html>"))
	f.Add(422, "application/json", []byte(`{"error":{"code":"VALIDATION_FAILED","message":"name taken","details":{"name":["taken"]}}}`))
	f.Add(404, "", []byte(""))
	f.Add(500, "application/json", []byte(`{"error": {"code": "INT`))
	f.Add(409, "application/json", []byte(`{"error":"x","code":"Y","message":"z\n\n"}`))
	f.Add(400, "application/json", []byte(`{"error":{"code":123}}`))
	f.Fuzz(func(t *testing.T, status int, ctype string, body []byte) {
		if status < 100 || status > 999 {
			status = 500
		}
		code, msg, _ := parseErrorBody(status, ctype, body)
		if code == "" || msg == "" {
			t.Fatalf("empty code %q or message %q", code, msg)
		}
		if strings.ContainsAny(msg, "\n\r") || len(msg) > maxMessageLen+len("…")+80 || !utf8.ValidString(msg) && utf8.ValidString(string(body)) {
			t.Fatalf("message not one short line: %q", msg)
		}
		if sanitizeCode(code, status) != code {
			t.Fatalf("code %q is not machine-shaped", code)
		}
	})
}

func FuzzParseAsyncStatus(f *testing.F) {
	f.Add([]byte(`{"status":"queued"}`))
	f.Add([]byte(`{"status":"success","result":{"id":42}}`))
	f.Add([]byte(`{"status":"success","id":42,"status_url":"/x"}`))
	f.Add([]byte(`{"status":"error","code":"PLAYGROUND_BUILD_FAILED","details":{"step":"build"},"message":"m"}`))
	f.Add([]byte(`{"status":"error","error":{"code":"X","details":{}},"error_status":"500"}`))
	f.Add([]byte(`{"status":"error","error":"s","error_code":7,"error_details":[]}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte(`{"status":5}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		st, err := parseAsyncStatus(body)
		if err != nil {
			return
		}
		if st.Status == "" {
			t.Fatal("accepted without a status")
		}
		if st.Status == "error" {
			if st.Err == nil || st.Err.Code == "" || st.Err.Message == "" || !st.Err.Async || strings.ContainsAny(st.Err.Message, "\n\r") {
				t.Fatalf("error status gave %+v", st.Err)
			}
		}
		if st.Status == "success" && st.Result == nil {
			t.Fatal("success without a result")
		}
	})
}

// KnownCode keeps a code this version knows and reads any other through
// the one status→code map.
func TestKnownCode(t *testing.T) {
	for _, c := range []struct {
		code   string
		status int
		want   string
	}{
		{CodeConflict, 500, CodeConflict},
		{CodeSessionExpired, 0, CodeSessionExpired},
		{"SOMETHING_NEW", 404, CodeNotFound},
		{"SOMETHING_NEW", 410, CodeBadRequest},
		{"SOMETHING_NEW", 423, CodeLocked},
		{"SOMETHING_NEW", 501, CodeNotImplemented},
		{"SOMETHING_NEW", 503, CodeInternal},
		{"SOMETHING_NEW", 0, CodeInvalidResponse},
		{CodeInternal, 502, CodeInternal},
		{CodeInternal, 0, CodeInternal},
	} {
		e := &Error{Code: c.code, Status: c.status}
		if got := e.KnownCode(); got != c.want || e.Code != c.code {
			t.Errorf("KnownCode of %s at %d = %s (code now %s), want %s", c.code, c.status, got, e.Code, c.want)
		}
	}
}
