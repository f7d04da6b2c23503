package localapi

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"syscall"
)

// transport serves requests in-process, for `--api-url local`.
type transport struct{ s *Server }

// NewTransport returns an http.RoundTripper that answers like the emulator
// without a socket. Its state lives in cfg.StatePath (required), shared and
// locked with every other process using the same file, so one command can
// create a playground and the next one roll it out.
//
// Faults look as they would on the wire: a reset is a connection-reset
// error, a hang blocks until the request's context ends or the hang passes.
func NewTransport(cfg Config) (http.RoundTripper, error) {
	if cfg.StatePath == "" {
		return nil, errors.New("localapi: NewTransport needs Config.StatePath (see DefaultStatePath)")
	}
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return &transport{s: s}, nil
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	body, tooLarge, err := readBody(req.Body, req.ContentLength)
	if err != nil {
		return nil, err
	}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	out := t.s.handle(&call{
		ctx: ctx, method: req.Method, path: req.URL.EscapedPath(), query: req.URL.Query(),
		rawQuery: req.URL.RawQuery, header: req.Header, body: body, tooLarge: tooLarge,
		scheme: req.URL.Scheme, host: host,
	})
	if out.err != nil {
		return nil, out.err
	}
	switch out.after {
	case afterReset:
		return nil, connectionReset()
	case afterHang:
		if err := t.s.wait(ctx, out.hang); err != nil {
			if err == errServerClosed {
				return nil, connectionReset()
			}
			return nil, err
		}
	}
	return toResponse(req, out.reply), nil
}

// connectionReset is the error a client sees when the peer resets.
func connectionReset() error {
	return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
}

func toResponse(req *http.Request, rep *reply) *http.Response {
	resp := &http.Response{
		Status:     strconv.Itoa(rep.status) + " " + http.StatusText(rep.status),
		StatusCode: rep.status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        rep.header.Clone(),
		Body:          http.NoBody,
		ContentLength: int64(len(rep.body)),
		Request:       req,
	}
	if len(rep.body) > 0 && req.Method != http.MethodHead {
		resp.Body = io.NopCloser(bytes.NewReader(rep.body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(rep.body)))
	}
	return resp
}
