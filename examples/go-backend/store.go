package main

// The backend: sessions of messages and namespaces of metadata, held in memory and kept
// durable by a journal (journal.jsonl in the store's folder): every write call appends one
// line before it returns, and opening a folder replays it. One line per call makes every
// call all or nothing across a crash: a line cut short by a kill is dropped on replay.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"
)

const (
	defaultHistoryLimit = 50
	journalName         = "journal.jsonl"
	// maxPayloadBytes bounds one message or metadata payload, as encoded: a larger one is
	// refused with ValueError (what INPUT-06 allows) rather than kept and journaled.
	maxPayloadBytes = 15 << 20
)

// storable is a checked value's encoded text, refused when it is too large to keep.
func storable(v any, what string) ([]byte, error) {
	text := encoded(v)
	if len(text) > maxPayloadBytes {
		return nil, valueErrorf("%s: %d bytes of JSON, over the %d-byte limit of one payload", what, len(text), maxPayloadBytes)
	}
	return text, nil
}

type row struct {
	seq      int64
	stamp    Stamp
	control  bool
	archived bool
	json     []byte // the message as returned, in the protocol's encoding
}

type entry struct {
	json      []byte
	updatedAt int64
}

// Store is one open store. The adapter answers one request at a time, so it needs no lock:
// every call runs to completion alone, which makes every call atomic.
type Store struct {
	RangeQueryLimit      int
	CrossSessionMaxLimit int

	sessions map[string][]*row
	// active counts each session's active conversation messages, kept as rows change:
	// countHistory answers from it without a scan (a host counts on every turn).
	active     map[string]int
	namespaces map[string]map[string]*entry
	seq        int64
	journal    *os.File
}

// journalRecord is one write call, as the journal keeps it.
type journalRecord struct {
	Op      string          `json:"op"`
	Session string          `json:"session,omitempty"`
	Message json.RawMessage `json:"message,omitempty"`
	Seqs    []int64         `json:"seqs,omitempty"`
	Ops     []journalOp     `json:"ops,omitempty"`
}

type journalOp struct {
	Namespace string          `json:"namespace"`
	Key       string          `json:"key"`
	Data      json.RawMessage `json:"data,omitempty"` // absent: a delete
	UpdatedAt int64           `json:"updatedAt,omitempty"`
}

// Open opens a store; with a folder, the one kept there (a new one when it holds none).
func Open(rangeQueryLimit, crossSessionMaxLimit int, dir string) (*Store, error) {
	s := &Store{
		RangeQueryLimit:      rangeQueryLimit,
		CrossSessionMaxLimit: crossSessionMaxLimit,
		sessions:             map[string][]*row{},
		active:               map[string]int{},
		namespaces:           map[string]map[string]*entry{},
	}
	if dir == "" {
		return s, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, journalName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	good, err := s.replay(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	// Drop a last line cut short by a kill, so the next line starts on a line of its own.
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	s.journal = f
	return s, nil
}

// replay applies every whole line of the journal; it returns the length of those lines.
func (s *Store) replay(f *os.File) (int64, error) {
	r := bufio.NewReaderSize(f, 1<<20)
	var good int64
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return good, nil // a last line without its newline was never acknowledged
		}
		if err != nil {
			return 0, err
		}
		var rec journalRecord
		if json.Unmarshal(line, &rec) != nil {
			return good, nil
		}
		if err := s.apply(rec); err != nil {
			return 0, err
		}
		good += int64(len(line))
	}
}

// write applies a record and appends it to the journal. The line is written whole with one
// write; a kill after it returns leaves it for the next open (the page cache survives the
// process; surviving a power cut would need f.Sync, which a crash of the process does not).
func (s *Store) write(rec journalRecord) error {
	if s.journal != nil {
		line, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if _, err := s.journal.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return s.apply(rec)
}

func (s *Store) apply(rec journalRecord) error {
	switch rec.Op {
	case "save":
		v, err := decode(rec.Message)
		if err != nil {
			return err
		}
		m := v.(map[string]any)
		stamp, err := stampOf(m["timestamp"], "timestamp", true)
		if err != nil {
			return err
		}
		kind, _ := m["kind"].(string)
		s.seq++
		s.insert(rec.Session, &row{seq: s.seq, stamp: stamp, control: kind == controlKind, json: rec.Message})
		if kind != controlKind {
			s.active[rec.Session]++
		}
	case "clear":
		delete(s.sessions, rec.Session)
		delete(s.active, rec.Session)
	case "clearAll":
		clear(s.sessions)
		clear(s.active)
	case "archive":
		archived := map[int64]bool{}
		for _, seq := range rec.Seqs {
			archived[seq] = true
		}
		// The archived rows are the session's earliest active ones: the scan stops at the last.
		left := len(archived)
		for _, r := range s.sessions[rec.Session] {
			if left == 0 {
				break
			}
			if archived[r.seq] && !r.archived {
				r.archived = true
				left--
				if !r.control {
					s.active[rec.Session]--
				}
			}
		}
	case "commit":
		for _, op := range rec.Ops {
			entries := s.namespaces[op.Namespace]
			if op.Data == nil {
				delete(entries, op.Key)
				if len(entries) == 0 {
					delete(s.namespaces, op.Namespace)
				}
				continue
			}
			if entries == nil {
				entries = map[string]*entry{}
				s.namespaces[op.Namespace] = entries
			}
			entries[op.Key] = &entry{json: op.Data, updatedAt: op.UpdatedAt}
		}
	}
	return nil
}

// insert places a message after every message of the same or an earlier timestamp: history
// is ordered by timestamp, then by write order.
func (s *Store) insert(session string, r *row) {
	rows := s.sessions[session]
	at := len(rows)
	for at > 0 && rows[at-1].stamp.compare(r.stamp) > 0 {
		at--
	}
	rows = append(rows, nil)
	copy(rows[at+1:], rows[at:])
	rows[at] = r
	s.sessions[session] = rows
}

// Close closes the journal.
func (s *Store) Close() error {
	if s.journal == nil {
		return nil
	}
	return s.journal.Close()
}

func nowMillis() int64 { return time.Now().UnixMilli() }

// SaveMessage appends a message to a session's history.
func (s *Store) SaveMessage(sessionID, message any) error {
	session, err := text(sessionID, "sessionId")
	if err != nil {
		return err
	}
	stored, _, err := checkMessage(message, nowMillis())
	if err != nil {
		return err
	}
	text, err := storable(stored, "message")
	if err != nil {
		return err
	}
	return s.write(journalRecord{Op: "save", Session: session, Message: text})
}

// GetHistory returns the newest limit conversation messages of the active history, oldest
// first, with the control records among and before them.
func (s *Store) GetHistory(sessionID, limit any, limitGiven bool) ([]json.RawMessage, error) {
	session, err := text(sessionID, "sessionId")
	if err != nil {
		return nil, err
	}
	wanted, err := limitOf(limit, limitGiven, defaultHistoryLimit, "limit")
	if err != nil {
		return nil, err
	}
	out := []json.RawMessage{} // never nil: encoding/json writes a nil slice as null
	if wanted == 0 {
		return out, nil
	}
	rows := s.sessions[session]
	seen := 0
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.archived {
			continue
		}
		if !r.control {
			seen++
			if seen > wanted {
				break
			}
		}
		out = append(out, r.json)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// ClearSession removes a session's messages, archived ones included.
func (s *Store) ClearSession(sessionID any) error {
	session, err := text(sessionID, "sessionId")
	if err != nil {
		return err
	}
	return s.write(journalRecord{Op: "clear", Session: session})
}

// ArchiveSpan archives the oldest count active messages but the positions in keep, and says
// how many it archived.
func (s *Store) ArchiveSpan(sessionID, span any) (int, error) {
	session, err := text(sessionID, "sessionId")
	if err != nil {
		return 0, err
	}
	fields, ok := span.(map[string]any)
	if !ok {
		return 0, typeErrorf("span must be {count, keep}, got %s", kindOf(span))
	}
	count, err := limitOf(fields["count"], true, 0, "span.count")
	if err != nil {
		return 0, err
	}
	if isInfinity(fields["count"]) {
		return 0, valueErrorf("span.count must be a non-negative integer, got Infinity")
	}
	kept := map[int]bool{}
	positions, err := keepOf(fields["keep"])
	if err != nil {
		return 0, err
	}
	for _, p := range positions {
		if isInfinity(p) {
			return 0, valueErrorf("span.keep positions must be non-negative integers, got Infinity")
		}
		position, err := limitOf(p, true, 0, "span.keep position")
		if err != nil {
			return 0, err
		}
		kept[position] = true
	}
	var seqs []int64
	position := 0
	for _, r := range s.sessions[session] {
		if position >= count {
			break
		}
		if r.archived {
			continue
		}
		if !kept[position] {
			seqs = append(seqs, r.seq)
		}
		position++
	}
	if len(seqs) == 0 {
		return 0, nil
	}
	return len(seqs), s.write(journalRecord{Op: "archive", Session: session, Seqs: seqs})
}

func isInfinity(v any) bool {
	f, ok := v.(float64)
	return ok && math.IsInf(f, 1)
}

// keepOf reads span.keep: a list of positions (a string or an object is a sequence of its
// characters or keys, as the kit sends a Python iterable it cannot list).
func keepOf(v any) ([]any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return v, nil
	case string:
		out := []any{}
		for _, c := range v {
			out = append(out, string(c))
		}
		return out, nil
	case map[string]any:
		out := []any{}
		for key := range v {
			out = append(out, key)
		}
		return out, nil
	}
	return nil, typeErrorf("span.keep must be a list, got %s", kindOf(v))
}

// Metadata: namespace -> key -> its data as JSON text and when it was written.

// SaveMetadata writes one entry.
func (s *Store) SaveMetadata(namespace, key, data any) error {
	return s.CommitMetadata([]any{map[string]any{"op": "put", "namespace": namespace, "key": key, "data": data}})
}

// GetMetadata returns an entry's data, or nil when there is none.
func (s *Store) GetMetadata(namespace, key any) (json.RawMessage, error) {
	ns, err := text(namespace, "namespace")
	if err != nil {
		return nil, err
	}
	k, err := text(key, "key")
	if err != nil {
		return nil, err
	}
	if e, ok := s.namespaces[ns][k]; ok {
		return e.json, nil
	}
	return json.RawMessage("null"), nil
}

// MetadataEntry is one entry of ListMetadata.
type MetadataEntry struct {
	Key       string          `json:"key"`
	Data      json.RawMessage `json:"data"`
	UpdatedAt int64           `json:"updatedAt"`
}

// ListMetadata returns a namespace's entries sorted by key (Go compares strings by their
// UTF-8 bytes, which is code point order).
func (s *Store) ListMetadata(namespace any) ([]MetadataEntry, error) {
	ns, err := text(namespace, "namespace")
	if err != nil {
		return nil, err
	}
	out := []MetadataEntry{}
	for key, e := range s.namespaces[ns] {
		out = append(out, MetadataEntry{Key: key, Data: e.json, UpdatedAt: e.updatedAt})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// DeleteMetadata removes one entry; a missing one is no error.
func (s *Store) DeleteMetadata(namespace, key any) error {
	ops := []any{map[string]any{"op": "del", "namespace": namespace, "key": key}}
	if ns, ok := namespace.(string); ok && oneBug && s.namespaces[ns][fmt.Sprint(key)] != nil {
		for other := range s.namespaces[ns] { // the bug: every key of the namespace goes
			ops = append(ops, map[string]any{"op": "del", "namespace": ns, "key": other})
		}
	}
	return s.CommitMetadata(ops)
}

// CommitMetadata applies a batch of puts and dels in order, all or nothing: every op is
// checked and encoded before the first is applied, and the batch is one journal line.
func (s *Store) CommitMetadata(ops any) error {
	list, ok := ops.([]any)
	if !ok {
		return typeErrorf("ops must be a list, got %s", kindOf(ops))
	}
	checked := make([]journalOp, 0, len(list))
	for i, item := range list {
		op, ok := item.(map[string]any)
		if !ok || (op["op"] != "put" && op["op"] != "del") {
			return typeErrorf("ops[%d] must be a put or a del, got %s", i, kindOf(item))
		}
		ns, err := text(op["namespace"], "namespace")
		if err != nil {
			return err
		}
		key, err := text(op["key"], "key")
		if err != nil {
			return err
		}
		if op["op"] == "del" {
			checked = append(checked, journalOp{Namespace: ns, Key: key})
			continue
		}
		data, err := payload(op["data"], "data")
		if err != nil {
			return err
		}
		text, err := storable(data, "data")
		if err != nil {
			return err
		}
		checked = append(checked, journalOp{Namespace: ns, Key: key, Data: text})
	}
	if len(checked) == 0 {
		return nil
	}
	now := nowMillis()
	stamps := map[[2]string]int64{} // a key put twice in one batch still moves forward
	for i := range checked {
		op := &checked[i]
		if op.Data == nil {
			continue
		}
		at := [2]string{op.Namespace, op.Key}
		previous, ok := stamps[at]
		if !ok {
			if e, found := s.namespaces[op.Namespace][op.Key]; found {
				previous, ok = e.updatedAt, true
			}
		}
		op.UpdatedAt = now
		if ok && previous >= now {
			op.UpdatedAt = previous + 1
		}
		stamps[at] = op.UpdatedAt
	}
	return s.write(journalRecord{Op: "commit", Ops: checked})
}

// Optional methods.

const defaultFullHistoryLimit = 200

// GetFullHistory returns the newest limit messages, archived and control records included,
// oldest first.
func (s *Store) GetFullHistory(sessionID, limit any, limitGiven bool) ([]json.RawMessage, error) {
	session, err := text(sessionID, "sessionId")
	if err != nil {
		return nil, err
	}
	wanted, err := limitOf(limit, limitGiven, defaultFullHistoryLimit, "limit")
	if err != nil {
		return nil, err
	}
	rows := s.sessions[session]
	if wanted < len(rows) {
		rows = rows[len(rows)-wanted:]
	}
	out := make([]json.RawMessage, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.json)
	}
	return out, nil
}

// CountHistory is the number of active conversation messages.
func (s *Store) CountHistory(sessionID any) (int, error) {
	session, err := text(sessionID, "sessionId")
	if err != nil {
		return 0, err
	}
	return s.active[session], nil
}

// ClearAll removes every session's messages; metadata stays.
func (s *Store) ClearAll() error {
	return s.write(journalRecord{Op: "clearAll"})
}
