package rules

import "github.com/tutord/tutord/internal/tutor/answer"

// move is a kind of sentence the engine says.
type move int

// The moves. Their phrasings are in phrasebook.
const (
	mStart           move = iota // the lesson starts
	mStartGently                 // the lesson starts, the learner unsure
	mMore                        // after part of an explanation
	mReadyQuestion               // after an explanation, before its question
	mReadyNext                   // after an explanation, before the next one: {title}
	mAsk                         // asks a question: {q}
	mAskNext                     // asks the next question after praise: {q}
	mAskHarder                   // asks a harder question after the lesson: {q}
	mPraiseValue                 // a right answer, named: {value}
	mPraise                      // a right answer
	mNextUp                      // moves on to an explanation: {title}
	mNotYet                      // a first wrong answer, echoed: {answer}
	mNotYetPlain                 // a first wrong answer
	mStill                       // a second wrong answer
	mPartly                      // a partly right answer: {what}
	mTryAgain                    // asks for another attempt
	mWalkThrough                 // before the worked solution
	mYourTurn                    // after the worked solution
	mStepBack                    // another question after repeated misses: {q}
	mLeave                       // leaves a question the learner cannot answer yet
	mIDK                         // "I don't know"
	mIDKAgain                    // "I don't know" again
	mGuess                       // asks for a guess
	mRedirect                    // an off-topic message, back to the question: {q}
	mRedirectLesson              // an off-topic message, back to the lesson: {title}
	mBackToQuestion              // after answering a doubt, back to the question
	mCarryOn                     // after answering a doubt, back to the lesson
	mClue                        // a doubt that would give the answer away
	mChoose                      // a reply that hedges between answers
	mWaiting                     // a message with no answer in it: {q}
	mAgain                       // repeats part of an explanation
	mWrapUp                      // the lesson is complete: {concepts}
	mOfferHarder                 // after the wrap-up, when the session allows more turns
	mFarewell                    // after the wrap-up, when it does not
	mBankDone                    // no questions left after the lesson
	mDeclined                    // the learner declines more questions
	mTimeUp                      // the sitting's time is up: {concepts}
	mStop                        // the learner stops
	mNoLesson                    // a session without a plan
	mClosure                     // closes an answered doubt
	mLastTime                    // a doubt discussed in an earlier session: {concept}
	mSuggest                     // suggests doubts to ask: {concepts}
	mGlad                        // a "yes" in a doubts session
	mUnclear                     // a "no" in a doubts session
	mNotInTopic                  // a doubt outside the topic: {topic}, {concept}
	mStayOnTopic                 // an off-topic message in a doubts session: {topic}
	mGoodbye                     // a doubts session ends
	mWelcomeTeach                // teach_me welcome: {topic}, {first}, {last}
	mWelcomeTeachOne             // teach_me welcome with one concept: {topic}
	mWelcomeClarify              // clarify_doubts welcome: {topic}, {concepts}
	mWelcomeExam                 // exam welcome: {topic}, {n}
	mAfterLesson                 // a message after a completed session
	mAfterQuestion               // a question after a completed session
	mAfterThanks                 // thanks after a completed session
	mAfterExam                   // a message after a finished exam
	// Moves added later go last: a move's number seeds its phrasing, so
	// renumbering would change the wording of existing sessions' replays.
	mWithHelpValue     // a right answer after the worked solution, named: {value}
	mWithHelp          // a right answer after the worked solution
	mAskMore           // asks another question after the lesson, no harder: {q}
	mNotCovered        // a doubt the lesson does not explain, before the lesson goes on
	mNotCoveredAsk     // a doubt the lesson does not explain, back to the question: {q}
	mGoodbyeThanks     // a doubts session ends with thanks
	mNoMore            // a follow-up on a doubt the lesson has said all it has about
	mWhatAbout         // a question that names nothing, with no doubt before it: {topic}, {concepts}
	mWatch             // names the mistakes a lesson recorded: {mistakes}
	mWrapUpWatch       // the lesson is complete, with the mistakes it recorded: {concepts}, {mistakes}
	mStepRight         // a right intermediate step, named, and on to the next: {what}
	mWelcome           // thanks for an answer, in a session that goes on
	mChinUp            // a learner who speaks badly of themselves
	mTooHard           // a learner who finds the task too hard
	mIDKStepBack       // "I don't know" after the last hint: another question, {q}
	mSpotted           // a wrong answer that shows the question's known mistake: {did}
	mRecap             // what the finished lesson covered, when asked: {concepts}
	mNotIt             // a wrong answer, before the lesson turns to another question
	mAfterRecap        // after the recap of a completed session
	mReversed          // a ratio with its terms the other way round: {answer}
	mHoldOn            // an answer given while no question is asked
	mAStep             // a step of the worked solution, as a clue once every hint is given: {step}
	mHowFar            // asks how far the learner got, once every hint and step is given
	mHelpClue          // a clue for a request for help that does not ask for the answer
	mNudge             // a clue for a second message in a row with no answer
	mWorkItOut         // working described without its result: asks for the result
	mAsNumber          // words where a number is asked: asks for the number
	mFromStep          // the last step of the solution the learner reached, to go on from: {step}
	mReteach           // the lesson's explanation of the question's idea again, when every clue is given
	mAlreadyHave       // a right step given again as the answer: {step}
	mKeyWas            // after praise, the idea behind the answer when it is an instruction: {idea}
	mNotReady          // "no" to going on: asks what to go over
	mJustSaid          // before a doubt's answer that the last reply already said
	mBeginNow          // after a doubt answered before the lesson began
	mNotSo             // a question that puts forward a common misconception: {mistake}
	mValueRight        // a temperature a doubt puts forward, right: {value}
	mSlipAfter         // a wrong answer whose working is right up to {step}: where to look again
	mSlipSum           // a wrong answer with a sum {step} worked wrong: that sum again
	mSlipStep          // a wrong answer whose equations change solution from {from} to {to}: that step again
	mInWords           // a letter given to options shown without letters: the option in words
	mNoOptions         // a letter given to a question without options: the answer itself
	mFactRight         // a claim a sentence of the lesson confirms: {fact}, that sentence
	mFactWrong         // a claim a sentence of the lesson contradicts: {fact}, that sentence
	mValueWrong        // a temperature a doubt puts forward, wrong: {value}, the claimed one
	mNoMorePractice    // more practice asked, none left on the concept: {concept}
	mOtherWay          // a piece still not followed after hearing it again: before the words it uses
	mTricky            // after the words of a piece: asks what is still unclear
	mWhy               // a bare "why?" about a piece: before the sentence that gives the reason
	mKeepKind          // a learner who insults the tutor: calm, then back to work
	mPutAnotherWay     // an answer that did not help: before more of the explanation
	mHelps             // after explaining again: asks whether it helped
	mBored             // a learner who finds the lesson dull: then on, briskly
	mWelcomeExamOne    // exam welcome, one question: {topic}
	mAfterDoubts       // a message after a finished doubts session
	mChangedAnswer     // a right answer taken back for another: {value}, the first, and {answer}, the other
	mDoubtsTimeUp      // a doubts session whose sitting's time is up: after the answer, instead of its closing question
	mHelloDoubts       // a greeting alone in a doubts session: greets back and asks for the doubt, {topic}
	mWelcomeClarifyOne // clarify_doubts welcome with no concept to name but the topic: {topic}

	moveCount // the number of moves, not a move
)

// phrasebook holds every phrasing of every move. Replies are in English
// whatever the learner's language preference: the templates are the
// engine's whole vocabulary, and it has no translator. They are plain
// text for the screen and for speech alike: no markdown, no emojis, and no
// generic verdicts ("Great job!", "Wrong", "Incorrect"): praise names what
// was right and a miss is answered with the next step, not a label.
var phrasebook = map[move][]string{
	mStart: {
		"Let's begin{name}.",
		"Great, let's get started{name}.",
		"Here we go{name}.",
	},
	mStartGently: {
		"No rush{name}, we'll take it slowly.",
		"That's fine, we'll go one small step at a time.",
	},
	mMore: {
		"Does that make sense so far?",
		"With me so far?",
		"Shall I go on?",
		"Ready for the next bit?",
	},
	mReadyQuestion: {
		"Ready for a quick question on this?",
		"Shall we check that with a question?",
		"Want to try a question on it?",
	},
	mReadyNext: {
		"Shall we move on to {title}?",
		"Next up is {title}: ready?",
		"Ready to look at {title}?",
	},
	mAsk: {
		"Here's a question for you{name}: {q}",
		"Try this one: {q}",
		"Let's check: {q}",
		"Your turn{name}: {q}",
	},
	mAskNext: {
		"Next one: {q}",
		"Here's another{name}: {q}",
		"Now try this: {q}",
	},
	mAskHarder: {
		"Here's a harder one{name}: {q}",
		"Try this tougher one: {q}",
		"Ready for a challenge? {q}",
	},
	mAskMore: {
		"Here's another one to try{name}: {q}",
		"Try this one: {q}",
		"Here's one more{name}: {q}",
	},
	mPraiseValue: {
		"Yes{name}, {value} is right.",
		"That's it: {value}.",
		"Exactly, {value}{name}.",
		"Spot on, {value}.",
	},
	mPraise: {
		"Yes{name}, that's right.",
		"Exactly right.",
		"Spot on{name}.",
	},
	mWithHelpValue: {
		"Yes{name}, {value}, now that you've worked it through.",
		"That's it, {value}: you followed the steps this time.",
		"Right, {value}{name}: keep that method in mind.",
	},
	mWithHelp: {
		"Yes{name}, now you've worked it through.",
		"That's it: you followed the steps this time.",
		"Right{name}: keep that method in mind.",
	},
	mNextUp: {
		"Next up is {title}: ready?",
		"Shall we move on to {title}?",
		"Let's look at {title} next: ready?",
	},
	mNotYet: {
		"Not quite{name}: you said {answer}.",
		"Hmm, {answer} isn't it yet.",
		"You said {answer}; let's look again.",
	},
	mNotYetPlain: {
		"Not quite{name}; let's look again.",
		"Hmm, not yet.",
		"Let's look at that again{name}.",
	},
	mStill: {
		"Not there yet{name}, but keep at it.",
		"Still not quite; here's a bigger clue.",
		"Keep going{name}, here's another clue.",
	},
	mPartly: {
		"You're partly there{name}: {what}.",
		"Nearly: {what}.",
		"Good start: {what}.",
	},
	mTryAgain: {
		"Try again?",
		"What do you get now?",
		"Have another go.",
		"What's your answer now?",
	},
	mWalkThrough: {
		"Let's work through it together{name}.",
		"Here's how it goes.",
		"Let me walk you through it.",
	},
	mYourTurn: {
		"Now you try: what's the answer?",
		"Can you give me the answer now?",
		"Now tell me the answer in your own words.",
	},
	mStepBack: {
		"Let's leave that one and try another on the same idea: {q}",
		"Let's come at it from another angle{name}: {q}",
		"Let's try a different question on the same idea: {q}",
	},
	mLeave: {
		"That one is tricky{name}, and that's okay: let's leave it for now.",
		"Let's put this one aside for now{name}.",
		"No problem, we'll leave that one there.",
	},
	mIDK: {
		"That's okay{name}, let's work it out together.",
		"No worries, we'll take it one step at a time.",
		"It's fine not to know yet{name}; here's a clue.",
	},
	mIDKAgain: {
		"No pressure{name}: even a guess helps.",
		"Give it your best guess; a guess that misses is fine here.",
		"Let's try it together{name}, one small piece at a time.",
	},
	mGuess: {
		"What do you think?",
		"What's your best guess?",
		"What would you try first?",
	},
	// No praise: an off-topic message ("tell me a joke") is not a good
	// thought about the lesson.
	mRedirect: {
		"Let's stay with our question{name}: {q}",
		"Let's save that for later; back to this one: {q}",
		"First, let's finish this one{name}: {q}",
	},
	mRedirectLesson: {
		"Let's save that for later{name}. Shall we carry on with {title}?",
		"Let's stay with {title} for now. Ready to carry on?",
		"Let's get back to {title}{name}. Shall we carry on?",
	},
	mBackToQuestion: {
		"Now, back to our question: what's your answer?",
		"With that in mind, try the question again.",
		"Now have a go at the question{name}.",
	},
	mCarryOn: {
		"Shall we carry on?",
		"Ready to continue{name}?",
		"Shall we keep going?",
	},
	mClue: {
		"Good question{name}: I can't give the answer away, but here's a clue.",
		"That would give it away, so here's a clue instead.",
		"Let's keep the answer for you to find{name}; here's a clue.",
	},
	mChoose: {
		"I see more than one answer there{name}; which one is your final answer?",
		"Pick one answer for me: which is it?",
	},
	mWaiting: {
		"Take your time{name}: {q}",
		"Whenever you're ready: {q}",
		"Have a go at this one{name}: {q}",
	},
	mAgain: {
		"Let's go over that again slowly{name}.",
		"No problem, here it is once more.",
		"Let me say that again.",
	},
	// No praise: the lesson may end on a question the learner left.
	mWrapUp: {
		"That's the whole lesson{name}: you've worked through {concepts}.",
		"And that completes the lesson: you've covered {concepts}{name}.",
		"That brings us to the end of the lesson{name}: we've covered {concepts}.",
	},
	// One sentence, so that the wrap-up stays within three of the engine's
	// own after praise for the last answer.
	mWrapUpWatch: {
		"That's the whole lesson{name}: you've worked through {concepts}; just watch out for {mistakes}.",
		"And that completes the lesson: you've covered {concepts}{name}; remember to watch out for {mistakes}.",
		"That brings us to the end of the lesson{name}: we've covered {concepts}; keep an eye out for {mistakes}.",
	},
	mOfferHarder: {
		"If you'd like, I can give you a harder question to try.",
		"Say yes if you'd like a harder question.",
	},
	mFarewell: {
		"Great work today{name}: start a new session whenever you're ready.",
		"You can start a new session whenever you like{name}.",
	},
	mBankDone: {
		"That's every question I have on this topic{name}, well done! You can start a new session whenever you like.",
		"You've tried all my questions on this topic! Start a new session whenever you're ready.",
	},
	mDeclined: {
		"No problem{name}. You can start a new session whenever you like.",
		"That's fine! Start a new session whenever you're ready.",
	},
	mTimeUp: {
		"We're out of time for today{name}: you worked on {concepts}. You can pick up where you left off anytime.",
		"That's our time for today: you worked on {concepts}. You can carry on from here next time{name}.",
	},
	mStop: {
		"No problem{name}, we'll stop here. You can pick up where you left off anytime.",
		"Okay, let's pause here. Come back whenever you're ready to carry on.",
	},
	mNoLesson: {
		"Let's start learning together{name}. What would you like to know?",
	},
	// One question only, so that a bare "no" has one meaning: no more
	// doubts. (After "Does that help, or ...?" it could mean either.)
	mClosure: {
		"Do you have another doubt?",
		"Is there anything else you're unsure about?",
		"Anything else you'd like to ask{name}?",
	},
	mLastTime: {
		"We looked at {concept} last time too, so here's a quick reminder.",
		"Last time we talked about {concept} as well; here it is again.",
	},
	mSuggest: {
		"No problem{name}: you could ask me about {concepts}.",
		"You might ask about {concepts}, for example.",
	},
	mGlad: {
		"Glad to hear it{name}! What would you like to ask next?",
		"Great! What else can I help with?",
	},
	mUnclear: {
		"Sorry that wasn't clear{name}. Which part would you like me to explain?",
		"Let's try again: which part is confusing you?",
	},
	mNotCovered: {
		"That's not something our lesson covers{name}, so let's carry on.",
		"Our lesson doesn't explain that, I'm afraid; let's keep going.",
		"I can't answer that from this lesson{name}, so let's go on.",
	},
	mNotCoveredAsk: {
		"That's not something our lesson covers{name}; let's come back to our question: {q}",
		"I can't answer that from our lesson, so back to this one: {q}",
		"Our lesson doesn't explain that{name}. Let's stay with the question: {q}",
	},
	// Followed by a closing question (mClosure), as an answer is.
	mNotInTopic: {
		"Our lesson on {topic} doesn't cover that{name}, so I can't answer it here. I can help with {concepts}.",
		"That isn't something our lesson on {topic} explains, I'm afraid. I can help with {concepts}.",
		"I can't answer that from our lesson on {topic}{name}. What I can help with is {concepts}.",
	},
	mNoMore: {
		"That's all our lesson says about it{name}.",
		"That's everything our lesson has on it, I'm afraid.",
	},
	mWhatAbout: {
		"What would you like to know about {topic}{name}? You could ask about {concepts}.",
		"Which part of {topic} is your doubt about? You could ask about {concepts}, for example.",
	},
	mWatch: {
		"One thing to watch out for{name}: {mistakes}.",
		"Watch out for {mistakes}.",
		"Keep an eye out for {mistakes}{name}.",
	},
	mStayOnTopic: {
		"Let's stick to {topic} for now{name}: what would you like to know about it?",
		"Let's keep to {topic}. What would you like to ask about it?",
	},
	mGoodbye: {
		"Okay{name}! Happy studying, and come back any time you have more doubts.",
		"All right. Good luck, and see you next time{name}!",
		"Sounds good{name}. Come back whenever another doubt comes up.",
	},
	mDoubtsTimeUp: {
		"That's our time for today{name}, so this doubts session ends here. Come back any time you have more doubts.",
		"We're out of time for this session{name}. Bring your next doubt to a new one whenever you like.",
	},
	mHelloDoubts: {
		"{hi} What's your doubt about {topic}?",
		"{hi} What would you like to ask about {topic}?",
	},
	mGoodbyeThanks: {
		"You're welcome{name}! Happy studying, and come back any time you have more doubts.",
		"Glad I could help. Good luck, and see you next time{name}!",
		"Happy to help{name}! Come back whenever another doubt comes up.",
	},
	mWelcomeTeach: {
		"{hi} Today we're learning {topic}: we'll start with {first} and build up to {last}. Ready to begin?",
		"{hi} In this lesson we'll work on {topic}, from {first} to {last}. Shall we start?",
	},
	mWelcomeTeachOne: {
		"{hi} Today we're learning {topic}, one step at a time. Ready to begin?",
		"{hi} In this lesson we'll work on {topic} together. Shall we start?",
	},
	mWelcomeClarify: {
		"{hi} I'm here to help with {topic}, such as {concepts}. What would you like to know?",
		"{hi} Ask me anything about {topic}, for example {concepts}. What's your doubt?",
	},
	mWelcomeClarifyOne: {
		"{hi} I'm here to help with {topic}. What would you like to know?",
		"{hi} Ask me anything about {topic}. What's your doubt?",
	},
	mWelcomeExam: {
		"{hi} This is a {n}-question exam on {topic}. Answer each one as best you can, and you'll see your results at the end.",
		"{hi} Let's test your knowledge of {topic} with {n} questions. Take your time, and your results come at the end.",
	},
	mWelcomeExamOne: {
		"{hi} This is a one-question exam on {topic}. Answer it as best you can, and you'll see your result at the end.",
		"{hi} Let's test your knowledge of {topic} with one question. Take your time, and your result comes at the end.",
	},
	mAfterDoubts: {
		"Our doubts session has ended{name}. Start a new one whenever another doubt comes up.",
		"This doubts session is over. Start a new session any time you have another question.",
	},
	mAfterLesson: {
		"Thanks for your message{name}! This session is complete, so start a new session whenever you're ready.",
		"This lesson is finished{name}. You can start a new session any time to keep learning.",
	},
	mAfterQuestion: {
		"That's a good question for a new session{name}. Start one whenever you're ready!",
		"Good question! This session is complete, so start a new session and we can explore it.",
	},
	mAfterThanks: {
		"You're welcome{name}! Start a new session whenever you'd like to learn more.",
		"Happy to help! Start a new session whenever you're ready to learn more.",
	},
	mAfterExam: {
		"Thanks{name}! Your results are above; start a new session whenever you'd like to practise more.",
		"Your exam is finished and your results are above. Start a new session any time to keep practising.",
	},
	mStepRight: {
		"Yes, {what}. What's the next step?",
		"That's right, {what}. Now carry on from there.",
		"Good, {what}. What do you do with that next?",
	},
	mWelcome: {
		"You're welcome{name}! What else would you like to ask?",
		"Happy to help! Is there anything else you're unsure about?",
	},
	mChangedAnswer: {
		"Your first answer, {value}, was the right one{name}; {answer} is not, so stick with {value}.",
		"Stick with {value}{name}: that was right, and {answer} is not.",
	},
	mHoldOn: {
		"Hold that thought{name}: a question is coming up soon.",
		"Keep that in mind{name}; you'll get a question to try in a moment.",
	},
	mReversed: {
		"Nearly{name}: {answer} has its terms the other way round, and in a ratio the order matters.",
		"Look at the order{name}: {answer} puts the terms the other way round.",
	},
	mAfterRecap: {
		"Start a new session whenever you'd like to practise more{name}.",
		"You can start a new session any time to keep going.",
	},
	mNotIt: {
		"Not quite{name}.",
		"That isn't it yet.",
		"Hmm, not this time.",
	},
	mRecap: {
		"In this lesson we worked through {concepts}{name}.",
		"We covered {concepts}.",
	},
	mAStep: {
		"Notice that {step}.",
		"Think about this: {step}.",
		"Try going on from this: {step}.",
	},
	mWorkItOut: {
		"Go on then{name}: what do you get?",
		"Carry on with that: what answer does it give?",
		"Try it: what do you get when you work it out?",
	},
	mAlreadyHave: {
		"You have that already{name}: {step}. That's a step, not the answer yet.",
		"Right, {step}, as you found before; but the question asks for more.",
	},
	mNoMorePractice: {
		"That's all the practice I have on {concept} for now{name}. Shall we go on?",
		"I've no more questions on {concept} just now. Shall we move on?",
	},
	mOtherWay: {
		"Let's take the key words one at a time{name}.",
		"Here's what some of the words mean{name}.",
	},
	mTricky: {
		"Which bit is still tricky? Ask me about it, or say \"go on\" when you're ready.",
		"Is there a word or a step that's still unclear? Ask away, or say \"go on\" to carry on.",
	},
	mBored: {
		"Fair enough{name}; let's keep it moving.",
		"Let's pick up the pace then{name}.",
	},
	mHelps: {
		"Does that help{name}?",
		"Is that clearer now?",
	},
	mPutAnotherWay: {
		"Let me put it another way{name}.",
		"Here's a bit more that may help.",
	},
	mKeepKind: {
		"I'm here to help you learn{name}, so let's keep things kind.",
		"Let's keep it friendly{name}; I'm on your side.",
	},
	mWhy: {
		"Good question{name}. Here's the reason:",
		"Here's why{name}:",
	},
	mNotSo: {
		"No{name}: {mistake} is a common mistake.",
		"No, that's a common mistake: {mistake}.",
	},
	mSlipAfter: {
		"Your working is right as far as {step}{name}. Check the next step again: what do you get?",
		"Good method: everything up to {step} is right. Look again at the step after it. What do you get?",
	},
	mSlipStep: {
		"Check the step from {from} to {to} again{name}: what should it be?",
		"Your start, {from}, is fine; look again at how you got {to}. What do you get?",
	},
	mSlipSum: {
		"Check {step} again{name}: what does it come to?",
		"Your steps look sensible; look again at {step}. What is it?",
	},
	mInWords: {
		"The options had no letters{name}: which one do you mean? Write it in words.",
		"Tell me the option in words, please: there were no letters to pick from.",
	},
	mNoOptions: {
		"That question has no options to pick from{name}. What is your answer?",
		"There were no options A to D there: write your answer itself, please.",
	},
	mFactRight: {
		"Yes{name}. {fact}",
		"That's right. {fact}",
	},
	mFactWrong: {
		"Not quite{name}. {fact}",
		"No, the other way round. {fact}",
	},
	mValueRight: {
		"Yes, {value}.",
		"That's right{name}: {value}.",
	},
	mValueWrong: {
		"No, not {value}.",
		"Not quite{name}: not {value}.",
	},
	mBeginNow: {
		"Shall we start the lesson now{name}?",
		"Ready to begin the lesson?",
	},
	mJustSaid: {
		"Good question: that's the key part.",
		"Let's look at that part again.",
	},
	mNotReady: {
		"No rush{name}. Is there something you'd like me to explain again, or a question you have? Say \"go on\" when you're ready.",
		"That's fine. What would you like to go over again? Ask me anything, or tell me when you're ready to go on.",
	},
	mKeyWas: {
		"The key was to {idea}",
		"That works because the way in is to {idea}",
		"The trick here is to {idea}",
	},
	mReteach: {
		"Let's look at the idea behind it again{name}.",
		"Here's the idea once more.",
		"Let's go back to the idea for a moment.",
	},
	mFromStep: {
		"You've already found that {step}: use that to finish.",
		"So far you have found that {step}; now take it one step further.",
	},
	mAsNumber: {
		"What is that as a number{name}?",
		"Can you give your answer as a number?",
	},
	mNudge: {
		"Let me give you a start{name}.",
		"Here's something to get you going.",
		"Let's get you started{name}.",
	},
	mHelpClue: {
		"Here's a clue{name}.",
		"Sure{name}: here's a clue.",
		"Of course; here's a clue to help.",
	},
	mHowFar: {
		"Tell me how far you got, and we'll take the next step together.",
		"What have you worked out so far? Let's go on from there.",
		"Show me your working so far, and we'll find the next step together.",
		"Where did you get stuck? Tell me your last step and we'll go from there.",
		"Walk me through what you have so far, and we'll see what comes next.",
	},
	mSpotted: {
		"Not quite{name}: it looks like you {did}.",
		"Careful{name}: it looks as if you {did}.",
		"Hmm, it seems you {did}.",
	},
	mTooHard: {
		"It is a tricky one{name}, and that's okay: let's take it one small step at a time.",
		"Hard things get easier in small steps{name}; let's take the next one together.",
		"I know it feels hard{name}; you're closer than you think.",
	},
	mIDKStepBack: {
		"That's okay{name}; let's warm up with another one on the same idea: {q}",
		"No problem{name}, we'll build up to it. Try this one: {q}",
	},
	mChinUp: {
		"Please don't be hard on yourself{name}: everyone gets stuck, and getting stuck is how learning starts.",
		"I hear you{name}: this part is tricky, and finding it hard doesn't mean you're bad at it.",
		"You're not{name}: everyone finds new ideas slow at first, and you're learning.",
	},
}

// partialWhat says, for each reason the answer evaluator gives for a
// partly right answer, what is right and what is missing, without the
// answer. Reasons not listed get partialDefault.
var partialWhat = map[string]string{
	"right number, wrong unit":                   "the number is right, but take another look at the unit",
	"right number, unit missing":                 "the number is right, and it needs its unit",
	"right number, percent sign missing":         "the number is right; now write it as a percentage",
	"right value, not written as a percentage":   "your value is right; now write it as a percentage",
	"right number, but not a percentage":         "the number is right, but it isn't a percentage",
	"right value, not written as a fraction":     "your value is right; now write it as a fraction in its simplest form",
	"right value, not written as a mixed number": "your value is right; now write it as a mixed number",
	"not in simplest form":                       "your value is right, but it can be simplified",
	"improper fraction, expected a mixed number": "your value is right; now write it as a mixed number",
	"some values right":                          "some of your values are right, but not all of them",
	"right elements, wrong order":                "you have the right items, but check their order",
	"all elements and some extra ones":           "everything needed is there, plus something extra",
	"some elements missing":                      "part of it is right, but something is missing",
	answer.ReasonAnother:                         "one of the things you named is right, but the question asks for just one",
}

const partialDefault = "part of that is right, but something is missing"

// formOnly are the partial reasons where the value is right and only its
// form is not: the question's hints, about finding the value, do not help.
var formOnly = map[string]bool{
	"right number, wrong unit": true, "right number, unit missing": true, "right number, percent sign missing": true,
	"right value, not written as a percentage": true, "right value, not written as a fraction": true,
	"right value, not written as a mixed number": true,
	"not in simplest form":                       true, "improper fraction, expected a mixed number": true,
}

// Fallback hints for questions without their own: a conceptual nudge, then
// a first step.
var fallbackHints = [2]string{
	"Think about the idea we just learned and how it fits this question.",
	"Start with the first step and work it through one piece at a time.",
}
