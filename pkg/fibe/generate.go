package fibe

// The *CreateParams and *UpdateParams structs, and the bodies they send,
// are generated from the resource descriptions (internal/resource).
//go:generate go run ../../internal/resource/sdkgen -o params_gen.go
