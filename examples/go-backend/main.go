// Command go-memory is a MemoryService backend for the Aalis conformance kit, written in Go
// with the standard library only. It speaks the kit's stdio driver protocol
// (docs/stdio-protocol.md in the kit): JSON-RPC 2.0, one message per line, requests on stdin,
// answers on stdout, its log on stderr.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
)

// Protocol error codes (JSON-RPC 2.0, and -32000 for an error the backend raised).
const (
	codeBackend        = -32000
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeUnknownMethod  = -32601
	codeInvalidParams  = -32602
)

// methods are the contract methods this backend has: the nine required ones and three
// optional ones (the kit reports the rules of the others "not implemented").
var methods = []string{
	"saveMessage", "getHistory", "clearSession", "archiveSpan",
	"saveMetadata", "getMetadata", "listMetadata", "deleteMetadata", "commitMetadata",
	"getFullHistory", "countHistory", "clearAll",
}

type request struct {
	ID     *int64                     `json:"id"`
	Method string                     `json:"method"`
	Params map[string]json.RawMessage `json:"params"`
}

type response struct {
	JSONRPC string    `json:"jsonrpc"`
	ID      *int64    `json:"id"`
	Result  any       `json:"result,omitempty"`
	Error   *rpcError `json:"error,omitempty"`
}

type rpcError struct {
	Code    int               `json:"code"`
	Message string            `json:"message"`
	Data    map[string]string `json:"data"`
}

// protocolError is a request the adapter cannot serve (unknown method, unknown handle).
type protocolError struct {
	code int
	msg  string
}

func (e *protocolError) Error() string { return e.msg }

// Adapter holds the open stores, by handle.
type Adapter struct {
	stores map[string]*Store
	next   int
	out    *bufio.Writer
}

func main() {
	log.SetOutput(os.Stderr) // stdout carries protocol lines only
	log.SetFlags(0)
	log.SetPrefix("go-memory: ")
	a := &Adapter{stores: map[string]*Store{}, out: bufio.NewWriterSize(os.Stdout, 1<<16)}
	in := bufio.NewReaderSize(os.Stdin, 1<<20) // lines may be long: a 15 MiB payload is sent
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			a.serve(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				log.Print(err)
			}
			break
		}
	}
	for _, s := range a.stores { // end of input: finish, exit
		s.Close()
	}
}

// serve answers one request line. Requests are served one at a time, in the order they
// arrive: every call runs to completion alone.
func (a *Adapter) serve(line []byte) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		a.send(response{Error: &rpcError{Code: codeParse, Message: "parse error: " + err.Error(), Data: errorData("Error")}})
		return
	}
	result, err := a.call(req, line)
	if err == nil {
		if result == nil {
			result = json.RawMessage("null") // a method returning nothing answers null
		}
		a.send(response{ID: req.ID, Result: result})
		return
	}
	rerr := &rpcError{Code: codeBackend, Message: err.Error(), Data: errorData("Error")}
	var arg *ArgError
	var proto *protocolError
	switch {
	case errors.As(err, &arg):
		rerr.Data = errorData(arg.Class)
	case errors.As(err, &proto):
		rerr.Code = proto.code
	}
	a.send(response{ID: req.ID, Error: rerr})
}

func errorData(class string) map[string]string { return map[string]string{"errorClass": class} }

func (a *Adapter) send(r response) {
	r.JSONRPC = "2.0"
	line, err := json.Marshal(r)
	if err != nil {
		log.Printf("cannot encode the answer to %v: %v", r.ID, err)
		line, _ = json.Marshal(response{JSONRPC: "2.0", ID: r.ID, Error: &rpcError{Code: codeBackend, Message: err.Error(), Data: errorData("Error")}})
	}
	a.out.Write(line)
	a.out.WriteByte('\n')
	a.out.Flush()
}

func (a *Adapter) call(req request, line []byte) (any, error) {
	if req.ID == nil || req.Params == nil {
		return nil, &protocolError{codeInvalidRequest, "invalid request"}
	}
	p := req.Params
	switch req.Method {
	case "hello":
		return hello(), nil
	case "open":
		var o struct {
			RangeQueryLimit      int    `json:"rangeQueryLimit"`
			CrossSessionMaxLimit int    `json:"crossSessionMaxLimit"`
			Path                 string `json:"path"`
		}
		params, _ := json.Marshal(p)
		if err := json.Unmarshal(params, &o); err != nil {
			return nil, &protocolError{codeInvalidParams, err.Error()}
		}
		s, err := Open(o.RangeQueryLimit, o.CrossSessionMaxLimit, o.Path)
		if err != nil {
			return nil, err
		}
		a.next++
		handle := "s" + strconv.Itoa(a.next)
		a.stores[handle] = s
		return map[string]string{"handle": handle}, nil
	}
	var handle string
	if err := json.Unmarshal(p["handle"], &handle); err != nil {
		return nil, &protocolError{codeInvalidParams, "no handle"}
	}
	s, ok := a.stores[handle]
	if !ok {
		return nil, &protocolError{codeInvalidParams, "no open store " + handle}
	}
	if req.Method == "close" {
		delete(a.stores, handle)
		return nil, s.Close()
	}
	// encoding/json turns a lone surrogate escape into U+FFFD: look for one first, in the
	// line as it came, so text the store cannot hold is refused, not silently changed.
	if loneSurrogate(line) {
		return nil, valueErrorf("%s: text holds a lone surrogate, which has no UTF-8 form", req.Method)
	}
	args := map[string]any{}
	for name, raw := range p {
		if name == "handle" {
			continue
		}
		v, err := decode(raw)
		if err != nil {
			return nil, &protocolError{codeInvalidParams, fmt.Sprintf("%s: %v", name, err)}
		}
		args[name] = v
	}
	return dispatch(s, req.Method, args)
}

// dispatch calls one contract method with its decoded arguments.
func dispatch(s *Store, method string, args map[string]any) (any, error) {
	switch method {
	case "saveMessage":
		return nil, s.SaveMessage(args["sessionId"], args["message"])
	case "getHistory":
		limit, given := args["limit"]
		return s.GetHistory(args["sessionId"], limit, given)
	case "clearSession":
		return nil, s.ClearSession(args["sessionId"])
	case "archiveSpan":
		return s.ArchiveSpan(args["sessionId"], args["span"])
	case "saveMetadata":
		return nil, s.SaveMetadata(args["namespace"], args["key"], args["data"])
	case "getMetadata":
		return s.GetMetadata(args["namespace"], args["key"])
	case "listMetadata":
		return s.ListMetadata(args["namespace"])
	case "deleteMetadata":
		return nil, s.DeleteMetadata(args["namespace"], args["key"])
	case "commitMetadata":
		return nil, s.CommitMetadata(args["ops"])
	case "getFullHistory":
		limit, given := args["limit"]
		return s.GetFullHistory(args["sessionId"], limit, given)
	case "countHistory":
		return s.CountHistory(args["sessionId"])
	case "clearAll":
		return nil, s.ClearAll()
	case "isolationProbe":
		return isolationProbe(s, args)
	}
	return nil, &protocolError{codeUnknownMethod, "unknown method " + method}
}

func hello() map[string]any {
	return map[string]any{
		"protocolVersion": 1,
		"adapter":         "go-memory",
		"capabilities": map[string]string{
			"ordering":          "timestamp",
			"metadataAtomicity": "atomic",
			"archiveAtomicity":  "atomic",
		},
		"methods":     methods,
		"rawMetadata": false,
		"isolation":   true,
		"durable":     true,
	}
}

// isolationProbe (ISO-01, ISO-02): save the messages, change in place the values passed to
// SaveMessage ("saved") or those the read returned ("returned"), then read again. The store
// keeps and hands out encoded copies, so neither change can reach it; the kit judges that.
func isolationProbe(s *Store, args map[string]any) (any, error) {
	readParams, _ := args["readParams"].(map[string]any)
	limit, given := readParams["limit"]
	var reading func() ([]json.RawMessage, error)
	switch read, _ := args["read"].(string); read {
	case "getHistory":
		reading = func() ([]json.RawMessage, error) { return s.GetHistory(readParams["sessionId"], limit, given) }
	case "getFullHistory":
		reading = func() ([]json.RawMessage, error) { return s.GetFullHistory(readParams["sessionId"], limit, given) }
	default:
		return nil, &protocolError{codeInvalidParams, "the isolation probe cannot read with " + read}
	}
	messages, _ := args["messages"].([]any)
	for _, m := range messages {
		if err := s.SaveMessage(args["sessionId"], m); err != nil {
			return nil, err
		}
	}
	if args["mutate"] == "saved" {
		for _, m := range messages {
			vandalize(m)
		}
	} else {
		returned, err := reading()
		if err != nil {
			return nil, err
		}
		for _, raw := range returned {
			v, err := decode(raw)
			if err != nil {
				return nil, err
			}
			vandalize(v)
		}
	}
	again, err := reading()
	if err != nil {
		return nil, err
	}
	history, err := s.GetHistory(args["sessionId"], json.Number("10"), true)
	if err != nil {
		return nil, err
	}
	return map[string]any{"again": again, "history": history}, nil
}

// vandalize changes a message's content and every string and list inside its payload fields.
func vandalize(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if c, ok := m["content"].(string); ok {
		m["content"] = c + " (mutated)"
	}
	for _, field := range []string{"toolCalls", "segments", "images", "audios", "metadata"} {
		mutate(m[field])
	}
}

func mutate(v any) {
	switch v := v.(type) {
	case []any:
		for i, item := range v {
			if _, ok := item.(string); ok {
				v[i] = "mutated"
			} else {
				mutate(item)
			}
		}
	case map[string]any:
		for key, item := range v {
			if _, ok := item.(string); ok {
				v[key] = "mutated"
			} else {
				mutate(item)
			}
		}
		v["mutated"] = true
	}
}
