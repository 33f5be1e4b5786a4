package contract

import "encoding/json"

// EventType names what happened during an execution.
type EventType string

// The events of one execution, in the order they can occur: started once,
// then any number of log and data_request events, then result once.
const (
	EventStarted     EventType = "started"
	EventLog         EventType = "log"
	EventDataRequest EventType = "data_request"
	EventResult      EventType = "result"
)

// Event is one step of a streamed execution. The same events cross the
// wire between supervisor and child, reach Go callers of the streaming
// API, and go out to network clients as server-sent events.
type Event struct {
	Type EventType `json:"type"`
	// ExecutionID is the request's ID.
	ExecutionID string `json:"execution_id,omitempty"`
	// Log is set on log events.
	Log *LogEntry `json:"log,omitempty"`
	// DataRequest is set on data_request events.
	DataRequest *DataRequest `json:"data_request,omitempty"`
	// Result is set on the result event.
	Result *Result `json:"result,omitempty"`
}

// DataRequest is a guest's host.request(name, args) call.
type DataRequest struct {
	// Seq numbers the requests of one execution from 1.
	Seq  int64           `json:"seq"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
	// ParkRefused is set when the request is asked again because the
	// answer asked to park (ErrPark) and the execution could not: why.
	ParkRefused string `json:"park_refused,omitempty"`
}
