// Command libraries is a yardstick of the start-up benchmark: a command
// line built on the libraries fibe's design names (cobra, viper, spinner,
// color, backoff, gobreaker over net/http), doing nothing but printing a
// version. Its start-up is the floor of that design, before any feature
// of fibe's own (the MCP server, --jq, the emulator, the fleet store).
package main

import (
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/briandowns/spinner"
	"github.com/cenkalti/backoff/v4"
	"github.com/fatih/color"
	"github.com/sony/gobreaker/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func main() {
	v := viper.New()
	v.SetEnvPrefix("yardstick")
	v.AutomaticEnv()
	root := &cobra.Command{Use: "yardstick", SilenceUsage: true}
	root.PersistentFlags().Duration("timeout", 30*time.Second, "per request")
	root.AddCommand(&cobra.Command{Use: "version", Run: func(*cobra.Command, []string) {
		fmt.Println("yardstick dev")
	}})
	root.AddCommand(&cobra.Command{Use: "get URL", Args: cobra.ExactArgs(1), RunE: func(_ *cobra.Command, args []string) error {
		// Never taken by the benchmark; keeps the libraries linked.
		s := spinner.New(spinner.CharSets[14], 100*time.Millisecond)
		s.Start()
		defer s.Stop()
		cb := gobreaker.NewCircuitBreaker[*http.Response](gobreaker.Settings{Name: args[0]})
		resp, err := backoff.RetryWithData(func() (*http.Response, error) {
			return cb.Execute(func() (*http.Response, error) { return http.Get(args[0]) })
		}, backoff.NewExponentialBackOff())
		if err != nil {
			return err
		}
		color.New(color.FgGreen).Println(resp.Status)
		return resp.Body.Close()
	}})
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
