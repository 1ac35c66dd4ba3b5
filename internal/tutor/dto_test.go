package tutor

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestDTO(t *testing.T) {
	s, tp := askedState(t)
	o := turnAt(2, "41", tutorSays())
	o.Verdict = answer.Incorrect
	s, _ = ApplyTurn(s, tp, o)
	got := s.DTO(tp)
	want := StateDTO{
		SessionID: "sess-1", CurrentStep: 1, TotalSteps: 2, CurrentConcept: ptr("a"), ProgressPercentage: 0,
		MasteryEstimates: s.MasteryEstimates, Mode: ModeTeachMe, Coverage: 0, ConceptsDiscussed: []string{},
		QuestionPhase: ptr(PhaseProbe), LastAnswerResult: ptr(ResultIncorrect),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	got.MasteryEstimates[0].Score = 0.99
	if s.MasteryEstimates[0].Score == 0.99 {
		t.Error("the DTO shares the state's mastery")
	}

	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	wantKeys := sorted("session_id", "current_step", "total_steps", "current_concept", "progress_percentage", "mastery_estimates",
		"is_complete", "mode", "coverage", "concepts_discussed", "exam_progress", "is_paused", "question_phase", "last_answer_result")
	if diff := cmp.Diff(wantKeys, keysOf(t, b)); diff != "" {
		t.Errorf("keys (-want +got)\n%s", diff)
	}
}

func TestDTOByMode(t *testing.T) {
	tp := planOf(2)
	exam := newState(t, ModeExam, tp, examQuestions(2)...)
	exam, _ = ApplyTurn(exam, tp, Outcome{Now: t0, StudentMessage: "1", Verdict: answer.Correct})
	exam.LastQuestion = &Question{Phase: PhaseExplain} // never shown in an exam
	d := exam.DTO(tp)
	if d.ExamProgress == nil || *d.ExamProgress != (LiveExamProgress{CurrentQuestion: 2, TotalQuestions: 2, CorrectSoFar: 1}) {
		t.Errorf("exam progress %+v", d.ExamProgress)
	}
	if d.QuestionPhase != nil || d.LastAnswerResult != nil || d.IsComplete {
		t.Errorf("exam DTO shows phase %v, result %v, complete %v", d.QuestionPhase, d.LastAnswerResult, d.IsComplete)
	}
	exam, _ = ApplyTurn(exam, tp, Outcome{Now: t0, StudentMessage: "2", Verdict: answer.Correct})
	if d := exam.DTO(tp); !d.IsComplete || d.ExamProgress.CurrentQuestion != 3 {
		t.Errorf("finished exam: complete %v, progress %+v", d.IsComplete, d.ExamProgress)
	}

	clarify := newState(t, ModeClarify, tp)
	clarify, _ = ApplyTurn(clarify, tp, turnAt(1, "q", tutorSays(intent(IntentQuestion), updates(MasteryUpdate{"c2", 0.5}))))
	if d := clarify.DTO(tp); !cmp.Equal(d.ConceptsDiscussed, []string{"c2"}) || d.ExamProgress != nil || d.Coverage != 50 {
		t.Errorf("clarify DTO %+v", d)
	}

	none := State{SessionID: "x", Mode: ModeTeachMe, CurrentStep: 1}
	if d := none.DTO(nil); d.TotalSteps != 0 || d.CurrentConcept != nil || d.IsComplete || d.ProgressPercentage != 0 {
		t.Errorf("DTO without topic %+v", d)
	}
}
