// Package statestore holds the shared state stores besides the file store
// of internal/reliability: Redis, for a fleet of machines that share one
// set of breakers, one rate ledger, one marquee cache and one outcome
// journal (contract §6), and Failover, which falls back to the file store
// for the rest of an invocation when the shared store fails.
//
// Open builds the store an invocation uses from the state_store setting.
package statestore
