package webhooks

import (
	"context"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// deliveryStatuses are the values of --status.
var deliveryStatuses = []string{"pending", "delivered", "failed"}

// DeliveriesOptions are the inputs of `fibe webhooks deliveries`.
type DeliveriesOptions struct {
	cmdutil.Seams
	Ref     string
	Status  string
	Page    int
	PerPage int
}

// NewCmdDeliveries builds `fibe webhooks deliveries <id>`.
func NewCmdDeliveries(f *cmdutil.Factory, runF func(context.Context, *DeliveriesOptions) error) *cobra.Command {
	opts := &DeliveriesOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "deliveries <id> [--status pending|delivered|failed] [--page N] [--per-page N]",
		Short: "List an endpoint's deliveries, newest first",
		Long: `List an endpoint's deliveries, newest first: the event, the status
(pending, delivered or failed), the receiver's last answer and the number
of attempts. A failing receiver is tried 4 times in all (after 1 s, 4 s and
16 s) before the delivery is failed.`,
		Example: `  fibe webhooks deliveries 12
  fibe webhooks deliveries 12 --status failed --json`,
		Args: cmdutil.ExactArgs(1, "<id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.Status != "" && !slices.Contains(deliveryStatuses, opts.Status) {
				return output.FlagErrorf("invalid --status %q: want pending, delivered or failed", opts.Status)
			}
			if opts.Page < 0 || opts.PerPage < 0 {
				return output.FlagErrorf("--page and --per-page must not be negative")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return deliveriesRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Status, "status", "", "Only deliveries with this status: pending, delivered or failed")
	cmd.Flags().IntVar(&opts.Page, "page", 0, "Page to show (default 1)")
	cmd.Flags().IntVar(&opts.PerPage, "per-page", 0, "Deliveries per page (default 25, at most 100)")
	return cmd
}

func deliveriesRun(ctx context.Context, opts *DeliveriesOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	ds, _, err := c.Webhooks.Deliveries(ctx, opts.Ref, client.ListOptions{Status: opts.Status, Page: opts.Page, PerPage: opts.PerPage})
	if err != nil {
		return err
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(ds)
	}
	if len(ds) == 0 {
		ios.Notice("No deliveries.")
		return nil
	}
	t := iostreams.NewTable(ios.Out, ios.ColorScheme(), "ID", "EVENT", "STATUS", "CODE", "ATTEMPTS", "CREATED")
	for _, d := range ds {
		code := "-"
		if d.ResponseCode != nil {
			code = strconv.Itoa(*d.ResponseCode)
		}
		t.AddRow(strconv.FormatInt(d.ID, 10), output.Sanitize(d.EventType), output.Sanitize(d.Status), code,
			strconv.Itoa(d.Attempt), d.CreatedAt.Local().Format("2006-01-02 15:04:05"))
	}
	return t.Render()
}
