package cmdutil

import (
	"os/exec"
	"runtime"
)

// OpenBrowser opens url in the user's browser without waiting for it.
// Callers check IOStreams.CanOpenBrowser first and print the URL anyway.
func OpenBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
