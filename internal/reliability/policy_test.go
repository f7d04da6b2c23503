package reliability

import (
	"testing"
	"time"
)

func TestDefaultPolicyPinsTheContractNumbers(t *testing.T) {
	p := DefaultPolicy()
	checks := []struct {
		name      string
		got, want any
	}{
		{"MaxRetries", p.MaxRetries, 3},
		{"BaseDelay", p.BaseDelay, 500 * time.Millisecond},
		{"MaxDelay", p.MaxDelay, 30 * time.Second},
		{"AttemptTimeout", p.AttemptTimeout, 30 * time.Second},
		{"PollInterval", p.PollInterval, time.Second},
		{"PollTimeout", p.PollTimeout, 5 * time.Minute},
		{"BreakerThreshold", p.BreakerThreshold, 5},
		{"BreakerOpenTimeout", p.BreakerOpenTimeout, 30 * time.Second},
		{"BreakerProbes", p.BreakerProbes, 2},
		{"BreakerSuccesses", p.BreakerSuccesses, 2},
		{"RateWaitCeiling", p.RateWaitCeiling, 2 * time.Minute},
		{"MarqueeCacheTTL", p.MarqueeCacheTTL, 5 * time.Minute},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if p.Attempts() != 4 {
		t.Errorf("Attempts() = %d, want 4", p.Attempts())
	}
}

func TestWithDefaultsFillsOnlyZeroFields(t *testing.T) {
	if got := (Policy{}).WithDefaults(); got != DefaultPolicy() {
		t.Fatalf("zero policy = %+v, want defaults", got)
	}
	p := Policy{MaxRetries: 7, BaseDelay: time.Millisecond, BreakerThreshold: 2}.WithDefaults()
	if p.MaxRetries != 7 || p.BaseDelay != time.Millisecond || p.BreakerThreshold != 2 {
		t.Fatalf("set fields changed: %+v", p)
	}
	if p.MaxDelay != 30*time.Second || p.BreakerProbes != 2 {
		t.Fatalf("zero fields not defaulted: %+v", p)
	}
	none := Policy{MaxRetries: NoRetries}
	if n := none.WithDefaults().WithDefaults().Retries(); n != 0 {
		t.Fatalf("NoRetries gave %d retries after applying defaults twice", n)
	}
	if n := none.Attempts(); n != 1 {
		t.Fatalf("NoRetries gave %d attempts, want 1", n)
	}
}
