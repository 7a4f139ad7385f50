package server

import (
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Defaults of the connection limits.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 60 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultMaxConns          = 256
)

// httpServer is the server for one listener: the request line and
// headers must arrive within ReadHeaderTimeout and the whole request
// within ReadTimeout (a slow body is cut off, and answered 400), an idle
// keep-alive connection is closed after IdleTimeout. Once a request's
// body has been read, its connection's read deadline is lifted, so that
// a long call or an MCP event stream is not cut off by it.
func httpServer(h http.Handler, cfg Config) *http.Server {
	hdr, read, idle := cfg.ReadHeaderTimeout, cfg.ReadTimeout, cfg.IdleTimeout
	if hdr <= 0 {
		hdr = DefaultReadHeaderTimeout
	}
	if read <= 0 {
		read = DefaultReadTimeout
	}
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	return &http.Server{Handler: liftReadDeadline(h), ReadHeaderTimeout: hdr, ReadTimeout: read, IdleTimeout: idle, MaxHeaderBytes: 64 << 10}
}

// liftReadDeadline clears the connection's read deadline once the request
// body is read to its end (at once for a request without one).
func liftReadDeadline(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		lift := func() { rc.SetReadDeadline(time.Time{}) }
		if r.Body == nil || r.Body == http.NoBody {
			lift()
		} else {
			r.Body = &eofBody{ReadCloser: r.Body, atEOF: lift}
		}
		h.ServeHTTP(w, r)
	})
}

type eofBody struct {
	io.ReadCloser
	once  sync.Once
	atEOF func()
}

func (b *eofBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.atEOF)
	}
	return n, err
}

// limitListener accepts at most n connections at once; Accept waits for
// one to close (the kernel's backlog holds the rest).
type limitListener struct {
	net.Listener
	slots chan struct{}
}

func limitConns(ln net.Listener, n int) net.Listener {
	if n <= 0 {
		n = DefaultMaxConns
	}
	return &limitListener{Listener: ln, slots: make(chan struct{}, n)}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// CloseWrite half-closes the connection, when it is TCP.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
