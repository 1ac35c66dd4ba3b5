package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// Frame types of the WebSocket.
const (
	FrameTyping    = "typing"
	FrameAssistant = "assistant"
	FrameState     = "state_update"
	FrameError     = "error"
)

// Frame is a server frame.
type Frame struct {
	Type    string
	Message string // assistant
	Error   string // error
	State   *State // state_update
}

// Conn is an open WebSocket on a session.
type Conn struct {
	ws *websocket.Conn
	// Timeout bounds the wait for each frame (the reference harness waits
	// 90 s); 0 waits as long as the context allows.
	Timeout time.Duration
}

// Dial opens the session's WebSocket, with the client's token. The
// opening handshake is bounded by the client's Timeout; the connection
// lives on after it.
func (c *Client) Dial(ctx context.Context, sessionID string) (*Conn, error) {
	u, err := url.Parse(strings.TrimRight(c.BaseURL, "/") + "/sessions/ws/" + url.PathEscape(sessionID))
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	}
	if c.Token != "" {
		u.RawQuery = url.Values{"token": {c.Token}}.Encode()
	}
	opts := &websocket.DialOptions{HTTPClient: c.HTTP}
	dialCtx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	ws, resp, err := websocket.Dial(dialCtx, u.String(), opts)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("open the WebSocket: HTTP %d: %w", resp.StatusCode, err)
		}
		if ctx.Err() == nil && errors.Is(dialCtx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("open the WebSocket: no answer from the server within %s: %w", c.timeout(), context.DeadlineExceeded)
		}
		return nil, fmt.Errorf("open the WebSocket: %w", err)
	}
	ws.SetReadLimit(8 << 20)
	return &Conn{ws: ws}, nil
}

// ErrClosed reports a WebSocket that the server closed or that broke.
var ErrClosed = errors.New("the WebSocket closed")

// Next reads the next frame.
func (c *Conn) Next(ctx context.Context) (Frame, error) {
	readCtx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		readCtx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	typ, data, err := c.ws.Read(readCtx)
	if err != nil {
		// The caller's end (Ctrl-C, the run's deadline) is no fault of the
		// server: only the frame timeout is.
		if ctx.Err() != nil {
			return Frame{}, fmt.Errorf("stopped waiting for a frame: %w", ctx.Err())
		}
		if readCtx.Err() != nil {
			return Frame{}, fmt.Errorf("no frame from the server within %s: %w", c.Timeout, readCtx.Err())
		}
		if s := websocket.CloseStatus(err); s != -1 {
			return Frame{}, fmt.Errorf("%w (status %d %s)", ErrClosed, s, s)
		}
		return Frame{}, fmt.Errorf("%w: %v", ErrClosed, err)
	}
	if typ != websocket.MessageText {
		return Frame{}, errors.New("the server sent a binary frame")
	}
	var f struct {
		Type    string `json:"type"`
		Payload struct {
			Message *string `json:"message"`
			State   *State  `json:"state"`
			Error   *string `json:"error"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return Frame{}, fmt.Errorf("the server sent a frame that is not the contract's JSON: %v", err)
	}
	out := Frame{Type: f.Type, State: f.Payload.State}
	if f.Payload.Message != nil {
		out.Message = *f.Payload.Message
	}
	if f.Payload.Error != nil {
		out.Error = *f.Payload.Error
	}
	switch {
	case f.Type == FrameState && out.State == nil:
		return Frame{}, errors.New("the server sent a state_update without a state")
	case f.Type != FrameTyping && f.Type != FrameAssistant && f.Type != FrameState && f.Type != FrameError:
		return Frame{}, fmt.Errorf("the server sent a frame of unknown type %q", f.Type)
	}
	return out, nil
}

// Chat sends a chat frame.
func (c *Conn) Chat(ctx context.Context, message string) error {
	return c.send(ctx, map[string]any{"type": "chat", "payload": map[string]any{"message": message}})
}

// GetState sends a get_state frame.
func (c *Conn) GetState(ctx context.Context) error {
	return c.send(ctx, map[string]any{"type": "get_state"})
}

func (c *Conn) send(ctx context.Context, frame any) error {
	b, err := json.Marshal(frame)
	if err != nil {
		return err
	}
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return nil
}

// Close closes the WebSocket normally.
func (c *Conn) Close() error {
	return c.ws.Close(websocket.StatusNormalClosure, "")
}

// CloseNow closes the WebSocket without the closing handshake.
func (c *Conn) CloseNow() error {
	return c.ws.CloseNow()
}
