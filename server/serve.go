package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/server/console"
	"github.com/tgms-go/tgms/server/httpapi"
	"github.com/tgms-go/tgms/server/mcpserver"
	"github.com/tgms-go/tgms/server/openapi"
	"github.com/tgms-go/tgms/server/tools"
)

// MinTokenLength is the shortest bearer token accepted.
const MinTokenLength = 16

// Config says what to serve where.
type Config struct {
	MCPStdio bool   // MCP over standard input and output
	MCPHTTP  string // MCP over streamable HTTP at this address (path /mcp)
	HTTP     string // the JSON API and the console at this address
	Token    string // bearer token; required for a non-loopback address
	MaxBody  int64  // request body limit; 0 means httpapi.DefaultMaxBody
	// Connection limits (0: the Default... constants): the headers must
	// arrive within ReadHeaderTimeout, the whole request within
	// ReadTimeout; idle keep-alive connections close after IdleTimeout;
	// at most MaxConns connections are open per listener.
	ReadHeaderTimeout, ReadTimeout, IdleTimeout time.Duration
	MaxConns                                    int
	// Logf receives one line per listener started and per failure; never
	// standard output (stdio MCP owns it).
	Logf func(format string, args ...any)
}

// CheckBind refuses an address that is not loopback unless a token is
// set, and a token shorter than MinTokenLength. It reports whether the
// address is loopback.
func CheckBind(addr, token string) (loopback bool, err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("listen address %q: %v (want host:port, e.g. 127.0.0.1:7410)", addr, err)
	}
	if token != "" && len(token) < MinTokenLength {
		return false, fmt.Errorf("--token must be at least %d characters", MinTokenLength)
	}
	ip := net.ParseIP(host)
	loopback = host == "localhost" || ip != nil && ip.IsLoopback()
	if !loopback && token == "" {
		shown := host
		if shown == "" {
			shown = "every interface"
		}
		return false, fmt.Errorf("refusing to listen on %s (%s is not a loopback address) without --token: anyone who can reach it could read the store; bind 127.0.0.1, or give --token and send it as a bearer token", addr, shown)
	}
	return loopback, nil
}

// Handler is everything on one address: the console at /, the JSON API
// under /v1/ and MCP over streamable HTTP at /mcp, behind the security
// defaults for a loopback or a non-loopback address.
func Handler(svc *tools.Service, cfg Config, loopback bool) (http.Handler, error) {
	doc, err := openapi.JSON(svc.Tools(), mcpserver.Version)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/", httpapi.New(svc, httpapi.Options{MaxBody: cfg.MaxBody, OpenAPI: doc}))
	mux.Handle("/mcp", streamable(svc, cfg))
	mux.Handle("/", console.Handler())
	return guard(mux, loopback, cfg.Token), nil
}

// MCPHandler is MCP over streamable HTTP alone, at /mcp.
func MCPHandler(svc *tools.Service, cfg Config, loopback bool) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", streamable(svc, cfg))
	return guard(mux, loopback, cfg.Token)
}

func streamable(svc *tools.Service, cfg Config) http.Handler {
	srv := mcpserver.New(svc)
	maxBody := cfg.MaxBody
	if maxBody <= 0 {
		maxBody = httpapi.DefaultMaxBody
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{MaxRequestBodyBytes: maxBody})
}

// guard wraps a handler in the security defaults for its address. Console
// pages carry no data and are served without the token (the page sends
// it with every API call); everything under /v1 and /mcp needs it.
func guard(h http.Handler, loopback bool, token string) http.Handler {
	if token != "" {
		protected := httpapi.RequireToken(token, h)
		inner := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/v1/") || strings.HasPrefix(r.URL.Path, "/mcp") {
				protected.ServeHTTP(w, r)
				return
			}
			inner.ServeHTTP(w, r)
		})
	}
	h = httpapi.CrossOrigin(h)
	if loopback {
		h = httpapi.LoopbackHosts(h)
	}
	return httpapi.JSONErrors(h)
}

// Run serves until ctx is done, or the stdio MCP session ends, or a
// listener fails; then it shuts the listeners down.
func Run(ctx context.Context, svc *tools.Service, cfg Config) error {
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if !cfg.MCPStdio && cfg.MCPHTTP == "" && cfg.HTTP == "" {
		return errors.New("nothing to serve: give --mcp stdio, --mcp-http ADDR and/or --http ADDR")
	}
	addrs := []string{}
	if cfg.HTTP != "" {
		addrs = append(addrs, cfg.HTTP)
	}
	if cfg.MCPHTTP != "" && cfg.MCPHTTP != cfg.HTTP {
		addrs = append(addrs, cfg.MCPHTTP)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, len(addrs)+1)
	var servers []*http.Server
	defer func() {
		shut, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		for _, hs := range servers {
			hs.Shutdown(shut)
		}
	}()
	for _, addr := range addrs {
		loopback, err := CheckBind(addr, cfg.Token)
		if err != nil {
			return err
		}
		h := MCPHandler(svc, cfg, loopback)
		if addr == cfg.HTTP {
			if h, err = Handler(svc, cfg, loopback); err != nil {
				return err
			}
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("listen on %s: %w", addr, err)
		}
		hs := httpServer(h, cfg)
		servers = append(servers, hs)
		ln = limitConns(ln, cfg.MaxConns)
		what := []string{}
		if addr == cfg.HTTP {
			what = append(what, fmt.Sprintf("console http://%s/, API http://%s/v1/", ln.Addr(), ln.Addr()))
		}
		what = append(what, fmt.Sprintf("MCP http://%s/mcp", ln.Addr()))
		cfg.Logf("serving %s", strings.Join(what, "; "))
		go func() {
			if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- err
			}
		}()
	}
	var wg sync.WaitGroup
	if cfg.MCPStdio {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := mcpserver.New(svc).Run(ctx, &mcp.StdioTransport{})
			if ctx.Err() == nil {
				errc <- err // the client closed stdin: done
			}
		}()
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	cancel()
	wg.Wait()
	return err
}
