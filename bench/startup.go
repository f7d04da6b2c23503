package main

import "context"

// startupRuns is how many times the startup scenario runs each command
// (unless -cli-runs says otherwise).
const startupRuns = 50

// runStartup times the CLI's start-up alone: `fibe version` and
// `fibe --api-url local pg list` (wall time, median and p90, with the
// child's CPU time and peak RSS) and the package initialisation of
// `fibe version` (GODEBUG=inittrace=1), with the machine's load average
// beside them. The overhead scenario runs the same timings, fewer times.
func runStartup(ctx context.Context, env *runEnv, r *report) error {
	if !env.CLIRunsSet && !env.Short {
		env.CLIRuns = startupRuns
	}
	env.Startup = true
	if env.Public == "" {
		r.note("The start-up goals are paired medians against the public Fibe CLI (`fibe version` against its `--version`, and `mcp serve` against its own); give its binary with `-public BIN` to time them. `-baseline REV|BIN` pairs this build with another build of fibe, run for run.")
	} else {
		r.param("the public Fibe CLI (-public)", "a prebuilt binary, timed with the same environment and state directory")
	}
	r.note("`fibe --api-url local pg list` runs the emulator inside the process (the local API on a loopback socket) and lists one playground; its time includes starting that emulator.")
	r.note("Wall times and the init clock are inflated by a busy machine (see the load average); the child's CPU time (user + system) is less so, and bounds from above what its start-up could take on an idle core.")
	return runCLITiming(ctx, env, r)
}
