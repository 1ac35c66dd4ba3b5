// Package api holds tutord's HTTP API contract: the OpenAPI 3.1 document
// that the request-validation middleware and the response-checking tests
// load.
package api

import _ "embed"

// Spec is api/openapi.yaml, the OpenAPI 3.1 description of every route,
// request, response and error of tutord's HTTP API, and of the WebSocket
// frames (components ClientFrame and ServerFrame). Load it with kin-openapi's
// openapi3.NewLoader().LoadFromData.
//
//go:embed openapi.yaml
var Spec []byte
