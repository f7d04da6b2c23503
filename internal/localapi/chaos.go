package localapi

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fault kinds, as named in chaos specs and counted in Stats.Faults.
const (
	fault503         = "503"
	fault500         = "500"
	fault502         = "502"
	fault504         = "504"
	fault429         = "429"
	faultReset       = "reset"
	faultPanic       = "panic"
	faultCommit502   = "commit-then-502"
	faultCommitHang  = "commit-then-hang"
	faultCommitReset = "commit-then-reset"
)

// Answer-losing faults happen before the handler; commit faults after it
// (mutations only). One roll picks at most one of them, in this order.
var (
	preFaultKinds    = []string{fault503, fault500, fault502, fault504, fault429, faultReset, faultPanic}
	commitFaultKinds = []string{faultCommit502, faultCommitHang, faultCommitReset}
)

// profiles are named specs; a spec may mix them with single keys.
var profiles = map[string]string{
	"off":    "",
	"none":   "",
	"flaky":  "503=0.1,502=0.05,reset=0.03,commit-then-502=0.03,latency=0.1:200ms",
	"outage": "outage=marquee/prod-eu@5s+30s,503=0.02",
	"hostile": "503=0.15,500=0.05,502=0.05,504=0.05,429=0.05,reset=0.05," +
		"commit-then-502=0.1,commit-then-reset=0.05,commit-then-hang=0.05:35s,latency=0.2:2s," +
		"cable-expire=0.02,cable-drop=0.02",
}

const (
	defaultHang    = 35 * time.Second
	defaultLatency = time.Second
)

// chaosPlan is a parsed spec.
type chaosPlan struct {
	source     string
	since      time.Time // outage windows count from here
	rates      map[string]float64
	hangFor    time.Duration
	latency    float64
	latencyFor time.Duration
	outages    []outage
	cable      cableFaults
	// deviceSlowDown: the first N polls of every device login code are
	// answered slow_down (device.go).
	deviceSlowDown int
}

type outage struct {
	marquee    string
	start, len time.Duration
}

// cableFaults mirrors cable.Faults so this file does not depend on it.
type cableFaults struct {
	ExpireOnce  bool
	ExpireRate  float64
	ExpireBurst int
	DropRate    float64
	DropAfter   time.Duration
	RejectRate  float64
	NoPing      bool
}

// chaosRolls are the random draws of one request, taken in a fixed order so
// a seed reproduces a run.
type chaosRolls struct {
	fault       float64
	outageReset bool
}

func parseChaos(spec string) (*chaosPlan, error) {
	p := &chaosPlan{rates: map[string]float64{}, hangFor: defaultHang, latencyFor: defaultLatency}
	if err := p.parse(spec, 0); err != nil {
		return nil, err
	}
	total := 0.0
	for _, r := range p.rates {
		total += r
	}
	if total > 1.0000001 {
		return nil, fmt.Errorf("chaos: fault probabilities add up to %.3g, more than 1", total)
	}
	p.source = strings.TrimSpace(spec)
	return p, nil
}

func (p *chaosPlan) parse(spec string, depth int) error {
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, val, hasVal := strings.Cut(item, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !hasVal {
			expanded, ok := profiles[strings.ToLower(key)]
			if !ok || depth > 0 {
				return fmt.Errorf("chaos: %q is neither key=value nor a profile (flaky, outage, hostile)", item)
			}
			if err := p.parse(expanded, depth+1); err != nil {
				return err
			}
			continue
		}
		if err := p.set(key, val); err != nil {
			return fmt.Errorf("chaos: %s: %w", item, err)
		}
	}
	return nil
}

func (p *chaosPlan) set(key, val string) error {
	switch key {
	case fault503, fault500, fault502, fault504, fault429, faultReset, faultPanic, faultCommit502, faultCommitReset:
		r, err := parseProb(val)
		p.rates[key] = r
		return err
	case faultCommitHang:
		r, d, err := parseProbDur(val, defaultHang)
		p.rates[key], p.hangFor = r, d
		return err
	case "device-slow-down":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("want a count of polls, got %q", val)
		}
		p.deviceSlowDown = n
		return nil
	case "latency":
		r, d, err := parseProbDur(val, defaultLatency)
		p.latency, p.latencyFor = r, d
		return err
	case "outage":
		o, err := parseOutage(val)
		p.outages = append(p.outages, o)
		return err
	case "cable-expire":
		if val == "once" {
			p.cable.ExpireOnce = true
			return nil
		}
		r, err := parseProb(val)
		p.cable.ExpireRate = r
		return err
	case "cable-expire-burst":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("want a count")
		}
		p.cable.ExpireBurst = n
		return nil
	case "cable-drop":
		if d, ok := strings.CutPrefix(val, "@"); ok {
			dur, err := time.ParseDuration(d)
			if err != nil || dur <= 0 {
				return fmt.Errorf("want @DURATION")
			}
			p.cable.DropAfter = dur
			return nil
		}
		r, err := parseProb(val)
		p.cable.DropRate = r
		return err
	case "cable-reject":
		r, err := parseProb(val)
		p.cable.RejectRate = r
		return err
	case "cable-noping":
		b, err := strconv.ParseBool(val)
		p.cable.NoPing = b
		return err
	}
	return fmt.Errorf("unknown key %q", key)
}

func parseProb(s string) (float64, error) {
	r, err := strconv.ParseFloat(s, 64)
	if err != nil || r < 0 || r > 1 {
		return 0, fmt.Errorf("want a probability between 0 and 1")
	}
	return r, nil
}

// parseProbDur reads "P" or "P:DURATION".
func parseProbDur(s string, def time.Duration) (float64, time.Duration, error) {
	ps, ds, hasDur := strings.Cut(s, ":")
	r, err := parseProb(ps)
	if err != nil || !hasDur {
		return r, def, err
	}
	d, err := time.ParseDuration(ds)
	if err != nil || d < 0 {
		return 0, 0, fmt.Errorf("want P:DURATION, e.g. 0.1:2s")
	}
	return r, d, nil
}

// parseOutage reads "marquee/NAME@START+LEN".
func parseOutage(s string) (outage, error) {
	bad := fmt.Errorf("want marquee/NAME@START+LEN, e.g. marquee/prod-eu@10s+30s")
	name, ok := strings.CutPrefix(s, "marquee/")
	if !ok {
		return outage{}, bad
	}
	name, window, ok := strings.Cut(name, "@")
	if !ok || name == "" {
		return outage{}, bad
	}
	startS, lenS, ok := strings.Cut(window, "+")
	if !ok {
		return outage{}, bad
	}
	start, err1 := time.ParseDuration(startS)
	length, err2 := time.ParseDuration(lenS)
	if err1 != nil || err2 != nil || start < 0 || length <= 0 {
		return outage{}, bad
	}
	return outage{marquee: name, start: start, len: length}, nil
}

// preFault picks the fault, if any, that answers instead of the handler.
func (p *chaosPlan) preFault(roll float64) string {
	acc := 0.0
	for _, k := range preFaultKinds {
		acc += p.rates[k]
		if roll < acc {
			return k
		}
	}
	return ""
}

// commitFault picks the fault, if any, that loses a mutation's answer. Its
// slice of the roll follows the pre faults', so they never both fire.
func (p *chaosPlan) commitFault(roll float64) string {
	acc := 0.0
	for _, k := range preFaultKinds {
		acc += p.rates[k]
	}
	if roll < acc {
		return ""
	}
	for _, k := range commitFaultKinds {
		acc += p.rates[k]
		if roll < acc {
			return k
		}
	}
	return ""
}

// outageAt reports whether marquee is inside an outage window at now.
func (p *chaosPlan) outageAt(now time.Time, marquee string) (string, bool) {
	if marquee == "" {
		return "", false
	}
	for _, o := range p.outages {
		from := p.since.Add(o.start)
		if o.marquee == marquee && !now.Before(from) && now.Before(from.Add(o.len)) {
			return marquee, true
		}
	}
	return "", false
}

// faultAnswer is an injected HTTP error: an API error, or the HTML page of
// the "proxy" for gateway errors.
func faultAnswer(kind string) (*reply, error) {
	switch kind {
	case fault500:
		return nil, newAPIError(http.StatusInternalServerError, codeInternal, "internal server error", nil)
	case fault502:
		return htmlReply(http.StatusBadGateway), nil
	case fault504:
		return htmlReply(http.StatusGatewayTimeout), nil
	case fault429:
		return nil, newAPIError(http.StatusTooManyRequests, codeRateLimited, "too many requests", nil).
			withHeader("Retry-After", "1")
	default:
		return nil, newAPIError(http.StatusServiceUnavailable, codeInternal, "service temporarily unavailable", nil)
	}
}

// roll draws this request's random numbers and its latency.
func (s *Server) roll() (chaosRolls, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	latencyRoll := s.rng.Float64()
	r := chaosRolls{fault: s.rng.Float64(), outageReset: s.rng.Float64() < 0.2}
	var latency time.Duration
	if latencyRoll < s.chaos.latency {
		latency = s.chaos.latencyFor
	}
	return r, latency
}

func (s *Server) currentChaos() *chaosPlan {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chaos
}

// adoptChaos picks up a spec another process stored with SetChaos.
func (s *Server) adoptChaos(st *state) {
	if st.Chaos == nil {
		return
	}
	s.mu.Lock()
	if !st.Chaos.Since.After(s.chaos.since) {
		s.mu.Unlock()
		return
	}
	plan, err := parseChaos(st.Chaos.Spec)
	if err != nil {
		s.mu.Unlock()
		s.cfg.Logf("localapi: ignoring stored chaos spec: %v", err)
		return
	}
	plan.since = st.Chaos.Since
	s.mu.Unlock()
	s.setPlan(plan)
}

// setPlan makes plan the active faults. The cable part is handed over by
// syncCable, outside the state lock, since streams read the state.
func (s *Server) setPlan(plan *chaosPlan) {
	s.mu.Lock()
	s.chaos = plan
	s.cableDirty = true
	s.mu.Unlock()
}

func (s *Server) syncCable() {
	s.mu.Lock()
	dirty, f := s.cableDirty, s.chaos.cable
	s.cableDirty = false
	s.mu.Unlock()
	if dirty {
		s.applyCableFaults(f)
	}
}
