// Command nethttp is a yardstick of the start-up benchmark: the smallest
// Go program that can make an HTTP request. Its package initialisation and
// wall time are the floor of any client written in Go, on the machine the
// benchmark runs on.
package main

import (
	"fmt"
	"net/http"
	"os"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "get" {
		// Never taken by the benchmark; keeps net/http linked.
		resp, err := http.Get(os.Args[2])
		if err == nil {
			_ = resp.Body.Close()
		}
	}
	fmt.Println("yardstick dev")
}
