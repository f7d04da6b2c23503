package fibe_test

import (
	"errors"
	"fmt"
	"log"
	"net/http"

	"github.com/fibegg/fibe/pkg/fibe"
)

// A receiver checks each delivery before acting on it: the signature over
// the raw body, and the timestamp against replays.
func ExampleVerifyWebhookRequest() {
	secret := "whsec_example_secret_0123456789" // printed once by webhooks create
	http.HandleFunc("/hook", func(w http.ResponseWriter, r *http.Request) {
		p, err := fibe.VerifyWebhookRequest(r, secret, fibe.WebhookTolerance)
		if err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		log.Printf("%s (delivery %s)", p.Event, p.Delivery)
		w.WriteHeader(http.StatusNoContent)
	})
}

// A saved body and its X-Webhook-Signature header, checked offline.
func ExampleVerifyWebhook() {
	body := []byte(`{"event":"webhook.test","timestamp":"2026-12-03T10:00:00Z","data":{}}`)
	secret := "whsec_example_secret_0123456789"
	signature := "sha256=51e350dbd7acf11b0fd290df6723b6da9909acc232125679553f32f6b89d7a24"

	fmt.Println(fibe.VerifyWebhook(body, signature, secret))
	err := fibe.VerifyWebhook(body, signature, "another-secret-entirely")
	fmt.Println(errors.Is(err, &fibe.Error{Code: fibe.CodeInvalidSignature}))
	// Output:
	// <nil>
	// true
}
