package reliability

import (
	"net/http"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	ceiling := 30 * time.Second
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{" 12 ", 12 * time.Second, true},
		{"30", 30 * time.Second, true},
		{"31", ceiling, true},
		{"3600", ceiling, true},
		{"99999999999999999999999", ceiling, true},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second, true},
		{now.Add(time.Hour).Format(http.TimeFormat), ceiling, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, false},
		{"", 0, false},
		{"-5", 0, false},
		{"+5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"Mon, 99 Foo 2025", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseRetryAfter(c.in, now, ceiling)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, s := range []string{"0", "5", "30", "-1", "1e3", "", "Wed, 21 Oct 2015 07:28:00 GMT",
		now.Add(5 * time.Second).Format(http.TimeFormat), "18446744073709551616", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseRetryAfter(s, now, 30*time.Second)
		if d < 0 || d > 30*time.Second {
			t.Fatalf("ParseRetryAfter(%q) = %v outside [0, ceiling]", s, d)
		}
		if !ok && d != 0 {
			t.Fatalf("ParseRetryAfter(%q) ignored but returned %v", s, d)
		}
	})
}

// Without a ceiling a huge delay saturates instead of wrapping around into
// a negative (or tiny) wait.
func TestParseRetryAfterWithoutCeilingSaturates(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, in := range []string{"9999999999999", "99999999999999999999999"} {
		d, ok := ParseRetryAfter(in, now, 0)
		if !ok || d < 100*365*24*time.Hour {
			t.Errorf("ParseRetryAfter(%q, no ceiling) = %v, %v; want a saturated wait", in, d, ok)
		}
	}
}
