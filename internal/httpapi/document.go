package httpapi

import (
	"encoding/json"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// documentTopic is the document's topic: the reference's topic object plus
// tutord's plan_version_id.
type documentTopic struct {
	tutor.ReferenceTopic
	PlanVersionID string `json:"plan_version_id"`
}

type documentMessage struct {
	Role      string     `json:"role"`
	Content   string     `json:"content"`
	Timestamp tutor.Time `json:"timestamp"`
	MessageID *string    `json:"message_id"`
}

// sessionDocument assembles the stored session document of the reference
// (CONTRACT §4.4): the state, the topic object hydrated from the session's
// plan version, and full_conversation_log from the messages table. With
// redact, answer-bearing values a learner has not earned yet are nulled:
// the pending question's expected answer and rubric (until its explain
// phase), its hints not given yet, and the expected answers of exam
// questions not answered yet.
func sessionDocument(se orchestrator.Session, msgs []store.Message, redact bool) ([]byte, error) {
	raw, err := json.Marshal(se.State)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if se.Topic != nil {
		doc["topic"], err = json.Marshal(documentTopic{se.Topic.Reference(), se.Topic.PlanVersionID})
	} else if ref := se.State.Topic; ref != nil {
		t := (*tutor.Topic)(nil).Reference()
		t.TopicID, t.TopicName, t.Subject, t.GradeLevel = ref.TopicID, ref.TopicName, ref.Subject, ref.GradeLevel
		doc["topic"], err = json.Marshal(documentTopic{t, ref.PlanVersionID})
	}
	if err != nil {
		return nil, err
	}
	log := make([]documentMessage, len(msgs))
	for i, m := range msgs {
		log[i] = documentMessage{Role: m.Role, Content: m.Content, Timestamp: tutor.NewTime(m.CreatedAt)}
	}
	if doc["full_conversation_log"], err = json.Marshal(log); err != nil {
		return nil, err
	}
	if redact {
		if err := redactState(doc, se.State); err != nil {
			return nil, err
		}
	}
	return json.Marshal(doc)
}

// redactState nulls the answer-bearing values of doc, the JSON object of
// state st (or a document built on it), for a reader who is not an admin:
// see sessionDocument.
func redactState(doc map[string]json.RawMessage, st tutor.State) error {
	var err error
	if doc["last_question"], err = redactQuestion(st.LastQuestion); err != nil {
		return err
	}
	doc["exam_questions"], err = redactExam(st.ExamQuestions)
	return err
}

// redactedState returns a stored state as a reader who is not an admin may
// see it. It is re-encoded from the decoded state rather than patched, so
// that keys the decoder does not know (of an older document) cannot carry
// an answer past the redaction.
func redactedState(raw json.RawMessage) (json.RawMessage, error) {
	st, err := tutor.DecodeState(raw)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if err := redactState(doc, st); err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

func redactQuestion(q *tutor.Question) (json.RawMessage, error) {
	if q == nil {
		return json.RawMessage("null"), nil
	}
	var m map[string]any
	b, err := json.Marshal(q)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if q.Phase != tutor.PhaseExplain {
		m["expected_answer"] = nil
		m["rubric"] = nil
	}
	given := min(q.HintsUsed, len(q.Hints))
	if q.Phase == tutor.PhaseExplain {
		given = len(q.Hints)
	}
	m["hints"] = append([]string{}, q.Hints[:given]...)
	return json.Marshal(m)
}

func redactExam(qs []tutor.ExamQuestion) (json.RawMessage, error) {
	out := make([]map[string]any, len(qs))
	for i, q := range qs {
		b, err := json.Marshal(q)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return nil, err
		}
		if q.Result == nil {
			out[i]["expected_answer"] = nil
		}
	}
	return json.Marshal(out)
}
