package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// Peak RSS of a child is read from its rusage (ru_maxrss). On Linux, Go
// starts children with clone(CLONE_VM|CLONE_VFORK): until exec the child
// shares its parent's memory, and the kernel folds that memory's high-water
// mark into the child's ru_maxrss. Measured straight from the benchmark
// process, whose peak includes the herd, every command would "use" the
// benchmark's memory. So each timed run goes through a small helper: this
// same binary, started with helperEnv set, which runs the command, times it
// and reports its rusage. The helper's own peak is small and is reported as
// the floor below which the reading cannot go.

const helperEnv = "FIBE_BENCH_MEASURE_CHILD"

type helperResult struct {
	WallNS    int64 `json:"wall_ns"`
	MaxRSS    int64 `json:"max_rss"`
	HelperRSS int64 `json:"helper_rss"`
	CPUNS     int64 `json:"cpu_ns"` // the child's user + system CPU time
	Exit      int   `json:"exit"`
}

// isMeasuringHelper reports whether this process was started as the helper.
func isMeasuringHelper() bool { return os.Getenv(helperEnv) == "1" }

// measuringHelper runs args[0] with args[1:], its output on stderr, and
// prints a helperResult on stdout. It returns the process exit code.
func measuringHelper(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "measuring helper: no command")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, helperEnv+"=") })
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	began := time.Now()
	err := cmd.Run()
	res := helperResult{WallNS: int64(time.Since(began)), HelperRSS: selfMaxRSS()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.Exit = exit.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "measuring helper:", err)
		return 1
	}
	res.MaxRSS = maxRSS(cmd.ProcessState)
	res.CPUNS = int64(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime())
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		return 1
	}
	return 0
}
