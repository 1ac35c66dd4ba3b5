package httpapi

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// origins is the allowed-origins setting, normalised once. REST's CORS and
// the WebSocket's origin check both ask it, so that a browser page may use
// both or neither.
type origins struct {
	any  bool
	list []string
}

// newOrigins normalises a configured list: entries are trimmed, empty ones
// dropped, and a trailing slash removed ("https://app.example.com/" is a
// URL, the browser sends the origin without it).
func newOrigins(raw []string) origins {
	var o origins
	for _, e := range raw {
		e = strings.TrimSuffix(strings.TrimSpace(e), "/")
		switch e {
		case "":
		case "*":
			o.any = true
		default:
			o.list = append(o.list, e)
		}
	}
	return o
}

// allows reports whether a request's Origin header names an allowed
// origin: the same scheme, host and port, ignoring case (neither scheme
// nor host is case-sensitive).
func (o origins) allows(origin string) bool {
	if o.any {
		return true
	}
	for _, e := range o.list {
		if strings.EqualFold(e, origin) {
			return true
		}
	}
	return false
}

// errOriginNotAllowed refuses a preflight or a WebSocket upgrade from a
// page whose origin is not in TUTORD_CORS_ORIGINS.
var errOriginNotAllowed = &Error{Status: http.StatusForbidden, Code: "origin_not_allowed",
	Message: "This origin is not allowed to use the API"}

// cors answers preflights and marks responses as the reference did:
// preflights echo the origin and the requested headers; other responses
// allow any origin (the origin itself when a cookie is sent), with
// credentials. With a list of origins, only those are allowed: a preflight
// from another origin is refused with the error body, and other responses
// to it carry no CORS headers, so that the browser withholds them from the
// page.
func (s *Server) cors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req, h := c.Request(), c.Response().Header()
		origin := req.Header.Get("Origin")
		if origin == "" {
			return next(c)
		}
		allowed := s.origins.allows(origin)
		h.Add("Vary", "Origin")
		if req.Method == http.MethodOptions && req.Header.Get("Access-Control-Request-Method") != "" {
			if !allowed {
				return errOriginNotAllowed
			}
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Credentials", "true")
			h.Set("Access-Control-Allow-Methods", "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT")
			if rh := req.Header.Get("Access-Control-Request-Headers"); rh != "" {
				h.Set("Access-Control-Allow-Headers", rh)
			}
			h.Set("Access-Control-Max-Age", "600")
			return c.NoContent(http.StatusOK)
		}
		if allowed {
			if s.origins.any && req.Header.Get("Cookie") == "" {
				h.Set("Access-Control-Allow-Origin", "*")
			} else {
				h.Set("Access-Control-Allow-Origin", origin)
			}
			h.Set("Access-Control-Allow-Credentials", "true")
			h.Set("Access-Control-Expose-Headers", strings.Join([]string{echo.HeaderXRequestID, "Retry-After"}, ", "))
		}
		return next(c)
	}
}
