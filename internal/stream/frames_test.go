package stream

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestParseFrameShapes(t *testing.T) {
	id := logIdentifier{Channel: playgroundLogsChannel, PlaygroundID: 42}.String()
	respaced := `{"playground_id": 42, "channel": "PlaygroundLogsChannel"}`
	cases := []struct {
		name  string
		frame string
		want  frameKind
	}{
		{"welcome", `{"type":"welcome"}`, frameWelcome},
		{"ping", `{"type":"ping","message":1700000000}`, framePing},
		{"confirm", `{"type":"confirm_subscription","identifier":` + strconv.Quote(id) + `}`, frameConfirm},
		{"confirm re-encoded", `{"type":"confirm_subscription","identifier":` + strconv.Quote(respaced) + `}`, frameConfirm},
		{"confirm of another", `{"type":"confirm_subscription","identifier":"{\"channel\":\"X\"}"}`, frameOther},
		{"reject without identifier", `{"type":"reject_subscription"}`, frameReject},
		{"log", `{"identifier":` + strconv.Quote(id) + `,"message":{"type":"log","seq":7,"line":"hi","service":"web","stream":"stdout","timestamp":"t"}}`, frameMessage},
		{"log of another", `{"identifier":"{\"channel\":\"X\"}","message":{"type":"log","seq":7}}`, frameOther},
		{"expired message", `{"identifier":` + strconv.Quote(id) + `,"message":{"status":"session_expired"}}`, frameExpired},
		{"expired typed message", `{"identifier":` + strconv.Quote(id) + `,"message":{"type":"status","status":"session_expired"}}`, frameExpired},
		{"expired frame", `{"type":"status","status":"session_expired"}`, frameExpired},
		{"expired disconnect", `{"type":"disconnect","reason":"session_expired"}`, frameExpired},
		{"disconnect", `{"type":"disconnect","reason":"server_restart","reconnect":true}`, frameDisconnect},
	}
	for _, c := range cases {
		fr, ok := parseFrame([]byte(c.frame), id)
		if !ok || fr.kind != c.want {
			t.Errorf("%s: kind %d (ok %v), want %d", c.name, fr.kind, ok, c.want)
		}
	}
	fr, _ := parseFrame([]byte(`{"identifier":`+strconv.Quote(id)+`,"message":{"type":"log","seq":7,"line":"hi","service":"web","stream":"stdout","timestamp":"t"}}`), id)
	if line, ok := parseLogMessage(fr.message); !ok || line != (LogLine{Seq: 7, Line: "hi", Service: "web", Stream: "stdout", Timestamp: "t"}) {
		t.Errorf("line %s", fr.message)
	}
	if fr, _ := parseFrame([]byte(`{"type":"disconnect","reason":"unauthorized","reconnect":false}`), id); fr.reconnect {
		t.Error("reconnect:false read as true")
	}
	if _, ok := parseFrame([]byte(`not json`), id); ok {
		t.Error("garbage parsed")
	}
}

func FuzzParseFrame(f *testing.F) {
	id := logIdentifier{Channel: playgroundLogsChannel, PlaygroundID: 42}.String()
	for _, s := range []string{`{"type":"welcome"}`, `{"type":"ping","message":1}`,
		`{"type":"confirm_subscription","identifier":` + strconv.Quote(id) + `}`,
		`{"identifier":` + strconv.Quote(id) + `,"message":{"type":"log","seq":7,"line":"hi"}}`,
		`{"identifier":` + strconv.Quote(id) + `,"message":{"status":"session_expired"}}`,
		`{"type":"disconnect","reason":"x","reconnect":false}`, `{"message":[1]}`, `null`, `{"identifier":"{"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, ok := parseFrame(data, id)
		if !ok {
			return
		}
		if fr.kind != frameMessage {
			return
		}
		if l, ok := parseLogMessage(fr.message); ok && l.Seq <= 0 && !strings.Contains(string(data), `"log"`) {
			t.Fatalf("log line without a seq or a log type: %q", data)
		}
		var m terminalMessage
		_ = json.Unmarshal(fr.message, &m)
	})
}
