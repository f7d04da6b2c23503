# Everyday targets. CI (.ci/run) runs the same commands: gofmt, go vet,
# golangci-lint, deadcode and `go test -race -count=1 ./...`. See
# CONTRIBUTING.md.

GO          ?= go
GOLANGCI    ?= github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
DEADCODE    ?= golang.org/x/tools/cmd/deadcode@v0.52.0
GORELEASER  ?= $(GO) run github.com/goreleaser/goreleaser/v2@v2.12.7

# The end-to-end tests of the built binary.
E2E_PKGS := ./e2e/...

.PHONY: all build test lint fmt vet golangci deadcode e2e bench-short generate release-check release-snapshot release-build fuzz

all: lint test

build:
	$(GO) build -o fibe .

test:
	$(GO) test -race ./...

lint: fmt vet golangci deadcode

fmt:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then \
		echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# The linters of .golangci.yml (staticcheck among them), as .ci/run runs them.
golangci:
	$(GO) run $(GOLANGCI) run ./...

# Functions that no command and no test reaches, as .ci/run checks them
# (pkg/ left out: the SDK's exported functions are there for its users).
DEADCODE_FILTER := ^github.com/fibegg/fibe($$|/(bench|cmd|e2e|internal)(/|$$))
deadcode:
	@out="$$($(GO) run $(DEADCODE) -test -filter '$(DEADCODE_FILTER)' ./...)"; if [ -n "$$out" ]; then \
		echo "nothing reaches these functions:"; echo "$$out"; exit 1; fi

e2e:
	$(GO) test -race $(E2E_PKGS)

# A few seconds: the bench package's tests in short mode (they include the
# short run of every scenario), then the command's own short mode, which
# prints its reports and writes nothing.
bench-short:
	$(GO) test -short ./bench/...
	$(GO) run ./bench -short all

# go generate writes completions/, man/ and docs/commands.md; the MCP tool reference
# (docs/mcp-tools.md and the README's tool table) is written by its test.
generate:
	$(GO) generate ./...
	$(GO) test ./internal/mcpserver -run TestToolDocs -update

# Before a release, not in CI (goreleaser and every target cost more than
# CI's budget). release-snapshot builds everything into dist/: archives,
# .deb and .rpm, the Homebrew cask and the Scoop manifest; nothing is
# published. release-build builds only this machine's binary, quickly.
release-check:
	$(GORELEASER) check

release-snapshot:
	$(GORELEASER) release --snapshot --clean

release-build:
	$(GORELEASER) build --snapshot --clean --single-target

# Fuzz each target for FUZZTIME (their seed corpora run in every plain
# `go test`): the rate-limit headers, the -H flag and header validation,
# API paths, and URL masking. go test fuzzes one target per run.
FUZZTIME ?= 30s
FUZZ_TARGETS := \
	./internal/reliability:FuzzRateLimitHeaders \
	./cmd/api:FuzzHeaderFlag \
	./internal/client:FuzzValidateHeader \
	./internal/client:FuzzAPIPath \
	./internal/config:FuzzMaskURL

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME); \
	done
