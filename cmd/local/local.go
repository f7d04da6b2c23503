// Package local implements `fibe local`: the embedded emulator of the Fibe
// API, served over HTTP so any client (this CLI, curl, a test suite) can
// use it without an account. `--api-url local` uses the same emulator in
// process, without a server.
package local

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

// NewCmdLocal is the `fibe local` group.
func NewCmdLocal(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "local <command>",
		Short: "Run the embedded local Fibe API",
	})
	cmd.AddCommand(NewCmdServe(f, nil))
	return cmd
}

// ServeOptions are the inputs of `fibe local serve`.
type ServeOptions struct {
	IO     *iostreams.IOStreams
	Addr   string
	APIKey string
	// Players is how many players the emulator seeds, each with a key.
	Players int
	Chaos   string
	Seed    int64
	Speed   float64
	// RateLimit is the request budget per key and minute (0: the default, 600).
	RateLimit int
	// LegacyAsync serves async statuses in the older shape.
	LegacyAsync bool
	// StatusURL is where 202 answers point: "default", "alt" or "absolute".
	StatusURL string
	// AsyncCreate answers playground creation with 202 and an operation.
	AsyncCreate bool
	// AutoApprove approves every device login (`fibe auth login --web`)
	// as soon as its code is issued.
	AutoApprove bool
	// Ready, when set, receives the base URL once the server listens (tests).
	Ready func(url string)
}

// ServeInfo is what `fibe local serve` prints when it is ready.
type ServeInfo struct {
	URL    string `json:"url"`
	APIKey string `json:"api_key"`
	// Keys are every seeded key: each player's, then the admin's.
	Keys []ServeKey `json:"keys"`
}

// ServeKey is one seeded key of the emulator.
type ServeKey struct {
	Label  string `json:"label"` // "user A", "user B", ..., "admin"
	Player int64  `json:"player"`
	Key    string `json:"key"`
}

// NewCmdServe builds `fibe local serve`.
func NewCmdServe(f *cmdutil.Factory, runF func(context.Context, *ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{IO: f.IOStreams}
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:7878] [--api-key K] [--players N] [--chaos SPEC] [--seed N] [--speed F] [--rate-limit N] [--legacy-async] [--status-url STYLE] [--async-create] [--auto-approve]",
		Short: "Serve the local Fibe API over HTTP until interrupted",
		Long: `Serve an emulator of the Fibe API: playgrounds, marquees, async
operations, rate limits, idempotency and live logs, with optional injected
faults. Seed data: marquees local, prod-eu and unpaid; playspecs web and
broken (whose rollouts fail at the build step).

Each player has a world of their own: another player's resources answer
404. --players N seeds N players (1 by default); the first one's key is
--api-key, and each key is printed, with an admin key (scope "*") of the
first player. Keys minted with POST /api/api_keys hold the scopes asked
for, and every route checks them (403 FORBIDDEN).

--chaos takes a profile (flaky, outage, hostile) or a spec such as
"503=0.2,latency=0.1:2s". --speed divides every simulated duration.
Any HTTP client gets the platform's answers: lists apply every documented
filter (sort is name_asc, created_at_desc, ...; an unknown one is 400
INVALID_SORT; a value that cannot be read is a 422), plus /api/playspecs
and /api/me. Async results come under "result" by default; --legacy-async puts
them at the top level of the poll body (failures as error/error_code), as
older servers do and as clients written for them, such as the public Go
SDK, expect. --status-url alt|absolute moves the status URL of 202
answers, to check that a client polls the URL it is given.
--async-create answers playground creation with 202 (the operation's result
is the playground), as a busy platform may. Deleting a playground that has
running containers always answers 202 and tears it down in the background.
The device login of "fibe auth login --web" is served too: its approval
page is /cli/device (Approve or Deny); --auto-approve approves every code
as it is issued, for scripts and tests, and the chaos key
device-slow-down=N answers the first N polls of each code with slow_down.
Stop it with Ctrl-C.`,
		Example: `  fibe local serve
  fibe local serve --players 2
  fibe local serve --chaos flaky --seed 7
  fibe local serve --addr 127.0.0.1:0 --speed 10
  fibe local serve --legacy-async --status-url alt --rate-limit 60
  fibe local serve --async-create --speed 5
  fibe local serve --auto-approve    # then: fibe --api-url http://127.0.0.1:7878 auth login --web`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Speed <= 0 {
				return output.FlagErrorf("--speed must be positive")
			}
			if opts.Players < 1 || opts.Players > 26 {
				return output.FlagErrorf("--players must be between 1 and 26")
			}
			if opts.RateLimit < 0 {
				return output.FlagErrorf("--rate-limit must be 0 or more")
			}
			if _, _, err := net.SplitHostPort(opts.Addr); err != nil {
				return output.FlagErrorf("invalid --addr %q: want HOST:PORT", opts.Addr)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return serveRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:7878", "Address to listen on")
	cmd.Flags().StringVar(&opts.APIKey, "api-key", "", "API key the server accepts (default: the well-known local key)")
	cmd.Flags().IntVar(&opts.Players, "players", 1, "Players to seed, each with its own key and resources (user A's key is --api-key)")
	cmd.Flags().StringVar(&opts.Chaos, "chaos", "", "Fault profile (flaky, outage, hostile) or spec")
	cmd.Flags().Int64Var(&opts.Seed, "seed", 0, "Seed of the fault generator (reproducible chaos)")
	cmd.Flags().Float64Var(&opts.Speed, "speed", 1, "Speed factor of simulated durations")
	cmd.Flags().IntVar(&opts.RateLimit, "rate-limit", 0, "Requests per minute and key (default 600)")
	cmd.Flags().BoolVar(&opts.LegacyAsync, "legacy-async", false, "Answer async status polls in the older shape (result fields at the top level), for clients written for older servers")
	cmd.Flags().StringVar(&opts.StatusURL, "status-url", "default", "Status URL of 202 answers: default, alt or absolute")
	cmd.Flags().BoolVar(&opts.AsyncCreate, "async-create", false, "Answer playground creation with 202 and an operation")
	cmd.Flags().BoolVar(&opts.AutoApprove, "auto-approve", false, "Approve every device login (auth login --web) as soon as it starts")
	return cmd
}

func serveRun(ctx context.Context, opts *ServeOptions) error {
	ios := opts.IO
	key := opts.APIKey
	if key == "" {
		key = localapi.DefaultAPIKey
	}
	style := opts.StatusURL
	if style == "default" {
		style = ""
	}
	srv, err := localapi.New(localapi.Config{
		APIKey: key, Players: opts.Players, Chaos: opts.Chaos, Seed: opts.Seed, Speed: opts.Speed,
		RateLimit: opts.RateLimit, LegacyAsync: opts.LegacyAsync, StatusURLStyle: style,
		AsyncCreate: opts.AsyncCreate, DeviceAutoApprove: opts.AutoApprove,
	})
	if err != nil {
		return output.FlagErrorf("%v", err)
	}
	defer srv.Close()

	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", opts.Addr, err)
	}
	url := "http://" + ln.Addr().String()
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	// Shutdown waits for active requests; the emulator releases the ones it
	// is delaying on purpose.
	hs.RegisterOnShutdown(srv.Close)

	err = cmdutil.ServeUntilDone(ctx, hs, ln, func() error {
		info := ServeInfo{URL: url, APIKey: key}
		for _, k := range srv.Keys() {
			info.Keys = append(info.Keys, ServeKey{Label: k.Label, Player: k.Player, Key: k.Key})
		}
		if ios.JSON() {
			if err := ios.PrintJSON(info); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(ios.Out, "Local Fibe API listening on %s\n", url)
			fmt.Fprintf(ios.Out, "API key: %s\n", key)
			fmt.Fprintf(ios.Out, "export FIBE_API_URL=%s FIBE_API_KEY=%s\n", url, key)
			for _, k := range info.Keys[1:] {
				fmt.Fprintf(ios.Out, "Key of %s: %s\n", k.Label, k.Key)
			}
			if opts.Chaos != "" {
				fmt.Fprintf(ios.Out, "Chaos: %s (seed %d)\n", opts.Chaos, opts.Seed)
			}
			if opts.AutoApprove {
				ios.Notice("Device logins (auth login --web) are approved at once.")
			} else {
				ios.Notice("Device logins (auth login --web) are approved at %s/cli/device.", url)
			}
		}
		ios.Notice("Press Ctrl-C to stop.")
		if opts.Ready != nil {
			opts.Ready(url)
		}
		return nil
	})
	if err != nil {
		return err
	}
	ios.Notice("Stopped.")
	return nil
}
