# Everyday targets. CI runs the same commands: gofmt, go vet and
# `go test -race -count=1 ./...`. See CONTRIBUTING.md.

GO          ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

# The end-to-end tests of the built binary: in e2e/ when that directory
# exists, else in the module root's package (main_test.go, cli_*_test.go).
E2E_PKGS := $(if $(wildcard e2e/.),./e2e/...,.)

.PHONY: all build test lint fmt vet staticcheck e2e bench-short generate

all: lint test

build:
	$(GO) build -o fibe .

test:
	$(GO) test -race ./...

lint: fmt vet staticcheck

fmt:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then \
		echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...

e2e:
	$(GO) test -race $(E2E_PKGS)

# A few seconds: the bench package's tests in short mode (they include the
# short run of every scenario), then the command's own short mode, which
# prints its reports and writes nothing.
bench-short:
	$(GO) test -short ./bench/...
	$(GO) run ./bench -short all

# go generate writes completions/; the MCP tool reference
# (docs/mcp-tools.md and the README's tool table) is written by its test.
generate:
	$(GO) generate ./...
	$(GO) test ./internal/mcpserver -run TestToolDocs -update
