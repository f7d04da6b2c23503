package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// initCost is what one package's initialisation cost, as
// GODEBUG=inittrace=1 reports it.
type initCost struct {
	pkg    string
	bytes  int64
	allocs int64
}

// parseInitTrace reads the runtime's "init PKG @T ms, C ms clock, B bytes,
// N allocs" lines.
func parseInitTrace(out []byte) ([]initCost, error) {
	var costs []initCost
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		b, err1 := strconv.ParseInt(f[7], 10, 64)
		n, err2 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("unexpected inittrace line %q", sc.Text())
		}
		costs = append(costs, initCost{pkg: f[1], bytes: b, allocs: n})
	}
	return costs, sc.Err()
}

// Start-up stays lazy: what `fibe version` initialises before it runs is
// only what every command needs. Templates, the console's bundle, JSON
// schemas, regexps and Redis scripts are made on first use. Time is too
// noisy on a shared machine to assert, so the budget is held by what init
// allocates, which is deterministic; the time itself is measured by the
// benchmark (bench/results/overhead.md).
func TestStartupInitIsLazy(t *testing.T) {
	w := newUser(t)
	cmd := exec.Command(fibeBin, "version")
	cmd.Env = append(w.environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("fibe version: %v\n%s", err, stderr.String())
	}
	costs, err := parseInitTrace(stderr.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(costs) < 20 {
		t.Fatalf("only %d inittrace lines; stderr:\n%s", len(costs), stderr.String())
	}
	var total, ours int64
	for _, c := range costs {
		total += c.bytes
		if strings.HasPrefix(c.pkg, "github.com/fibegg/fibe") {
			ours += c.bytes
		}
	}
	sort.Slice(costs, func(i, j int) bool { return costs[i].bytes > costs[j].bytes })
	top := costs[:min(8, len(costs))]
	// Measured when this test was written: about 14 KB for fibe's own
	// packages (most of it the version stamp read from the build info) and
	// about 710 KB in all, all but those 14 KB in third-party packages:
	// gojq, blackfriday (linked through cobra/doc by `fibe man`), the MCP
	// SDK's jsonschema, gob. Before, 1.2 MB, of which 540 KB were the
	// console's templates and 118 KB one regexp of cmd/ops. spf13/viper
	// (internal/config) then added 39 KB, 30 KB of them the regexps of
	// subosito/gotenv it links: about 750 KB. The man pages then became
	// files embedded at build time (cmd/man/mangen), taking cobra/doc and
	// blackfriday (214 KB) out of the binary: about 520 KB, fibe's own 9 KB.
	const oursMax, totalMax = 16 << 10, 576 << 10
	if ours > oursMax {
		t.Errorf("fibe's packages allocate %d bytes at init, want at most %d; largest: %v", ours, oursMax, top)
	}
	if total > totalMax {
		t.Errorf("init allocates %d bytes in all, want at most %d; largest: %v", total, totalMax, top)
	}
}
