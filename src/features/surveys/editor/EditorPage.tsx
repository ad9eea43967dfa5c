import '../../../app/shared-chunk';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useReducer } from 'react';
import { Link } from 'wouter';
import { surveyIssues } from '../../../../domain/surveys/schema';
import type { TSurvey, TSurveyStatus } from '../../../../domain/surveys/types';
import { useWritable } from '../../../api/writable';
import { ReasonButton } from '../../../components/Tooltip';
import { useNamespaceKey } from '../../../lib/namespace';
import { namespacePath } from '../../../lib/paths';
import { toastOutcome } from '../../../stores/toasts';
import { type SurveyDraft, type SurveyEnvironment, surveyPaths, surveyQuery, useSaveSurvey } from '../api';
import { FlagTargeting } from '../FlagTargeting';
import { Preview } from '../Preview';
import { draftOf, STATUS_LABELS } from '../status';
import { SurveysArea } from '../SurveysArea';
import { Audience } from './Audience';
import { ThankYouCard, WelcomeCard } from './cards';
import { Display } from './Display';
import { editorReducer, initialEditorState, type Issues, previewSurvey, questionOfType } from './editor-model';
import { Check, Section, TextField } from './fields';
import { Look } from './Look';
import { AddQuestion, QuestionEditor } from './QuestionEditor';
import { Triggers } from './Triggers';

export default function EditorPage({ params }: { params: Record<string, string | undefined> }) {
  const namespaceKey = useNamespaceKey();
  return (
    <SurveysArea environmentId={params.environmentId} tab="surveys">
      {(environment) => (
        <EditorLoader environment={environment} surveyId={params.surveyId!} namespaceKey={namespaceKey} />
      )}
    </SurveysArea>
  );
}

function EditorLoader({
  environment,
  surveyId,
  namespaceKey,
}: {
  environment: SurveyEnvironment;
  surveyId: string;
  namespaceKey: string;
}) {
  const survey = useQuery(surveyQuery(namespaceKey, environment.id, surveyId));
  if (survey.isPending) return <p className="muted">Loading…</p>;
  if (survey.isError) return <p role="alert">{survey.error.message}</p>;
  return <SurveyEditor key={survey.data.updatedAt} survey={survey.data} environment={environment} />;
}

/** The next statuses an operator can move a survey to, with the button that does it. */
const TRANSITIONS: Record<TSurveyStatus, { status: TSurveyStatus; label: string }[]> = {
  draft: [{ status: 'inProgress', label: 'Publish' }],
  inProgress: [
    { status: 'paused', label: 'Pause' },
    { status: 'completed', label: 'Complete' },
  ],
  paused: [
    { status: 'inProgress', label: 'Resume' },
    { status: 'completed', label: 'Complete' },
  ],
  completed: [{ status: 'inProgress', label: 'Resume' }],
};

export function SurveyEditor({ survey, environment }: { survey: TSurvey; environment: SurveyEnvironment }) {
  const namespaceKey = useNamespaceKey();
  const writable = useWritable();
  const initial = useMemo(() => draftOf(survey), [survey]);
  const [{ draft, card }, dispatch] = useReducer(editorReducer, initial, initialEditorState);
  const save = useSaveSurvey(namespaceKey, environment.id);
  const issues: Issues = useMemo(() => surveyIssues(draft), [draft]);
  const problems = Object.keys(issues).length;
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const preview = useMemo(() => previewSurvey(draft, card), [draft, card]);
  const change = (patch: Partial<SurveyDraft>) => dispatch({ type: 'change', patch });
  const reason = writable.reason ?? (problems > 0 ? 'Fix the problems first' : undefined);

  const persist = (next: SurveyDraft, message: string) =>
    toastOutcome(save.mutateAsync({ id: survey.id, survey: next }), message);

  return (
    <div className="editor">
      <div className="editor-form">
        <div className="editor-toolbar">
          <Link href={namespacePath(namespaceKey, surveyPaths.list(environment.id))}>← All surveys</Link>
          <span className="badge" data-testid="survey-status">
            {STATUS_LABELS[draft.status]}
          </span>
          {/* #31 (results) adds its Results link here, #32 (linked flags) its fields to the Audience section. */}
        </div>
        <TextField label="Survey name" value={draft.name} error={issues.name} onChange={(name) => change({ name })} />
        <div className="editor-actions">
          <ReasonButton
            className="button button-primary"
            disabled={!dirty || save.isPending}
            reason={reason}
            onClick={() => persist(draft, 'Successfully saved survey')}
          >
            Save
          </ReasonButton>
          {TRANSITIONS[draft.status].map((transition) => (
            <ReasonButton
              key={transition.status}
              className="button"
              disabled={save.isPending}
              reason={reason}
              onClick={() =>
                persist(
                  { ...draft, status: transition.status },
                  `Successfully saved survey: ${STATUS_LABELS[transition.status].toLowerCase()}`,
                )
              }
            >
              {transition.label}
            </ReasonButton>
          ))}
          {problems > 0 && (
            <span className="field-error" role="status">
              {problems === 1 ? '1 problem' : `${problems} problems`} to fix before saving
            </span>
          )}
        </div>

        <Section title="Welcome card">
          <WelcomeCard
            draft={draft}
            issues={issues}
            change={change}
            onFocus={() => dispatch({ type: 'select', card: 'welcome' })}
          />
        </Section>

        <Section title="Questions">
          {draft.questions.map((question, index) => (
            <QuestionEditor
              key={question.id}
              question={question}
              index={index}
              draft={draft}
              issues={issues}
              selected={card === index}
              onSelect={() => dispatch({ type: 'select', card: index })}
              onChange={(next) => dispatch({ type: 'setQuestion', index, question: next })}
              onMove={(to) => dispatch({ type: 'moveQuestion', from: index, to })}
              onRemove={() => dispatch({ type: 'removeQuestion', index })}
            />
          ))}
          {issues.questions && <p className="field-error">{issues.questions}</p>}
          <AddQuestion onAdd={(type) => dispatch({ type: 'addQuestion', question: questionOfType(type) })} />
        </Section>

        <Section title="Thank-you card">
          <ThankYouCard draft={draft} issues={issues} change={change} />
        </Section>

        <Section title="Hidden fields">
          <Check
            label="Hidden fields on"
            checked={draft.hiddenFields.enabled}
            onChange={(enabled) => change({ hiddenFields: { ...draft.hiddenFields, enabled } })}
          />
          <TextField
            label="Field ids (comma separated)"
            value={(draft.hiddenFields.fieldIds ?? []).join(', ')}
            error={Object.entries(issues).find(([path]) => path.startsWith('hiddenFields'))?.[1]}
            onChange={(text) =>
              change({
                hiddenFields: {
                  ...draft.hiddenFields,
                  fieldIds: text
                    .split(',')
                    .map((id) => id.trim())
                    .filter(Boolean),
                },
              })
            }
          />
        </Section>

        <Section title="Triggers">
          <Triggers draft={draft} environment={environment} issues={issues} change={change} />
        </Section>

        <Section title="Audience">
          <Audience draft={draft} issues={issues} change={change} />
        </Section>

        <Section title="Flag and segment">
          <FlagTargeting linkedFlag={draft.linkedFlag} segmentKey={draft.segmentKey} issues={issues} change={change} />
        </Section>

        <Section title="Display">
          <Display draft={draft} issues={issues} change={change} />
        </Section>

        <Section title="Look">
          <Look draft={draft} environment={environment} issues={issues} change={change} />
        </Section>
      </div>
      <Preview survey={preview} environment={environment} />
    </div>
  );
}
