import type { SurveyDraft } from '../api';
import { Check, OptionalTextField, type PartProps, TextField } from './fields';

export function WelcomeCard({ draft, issues, change, onFocus }: PartProps & { onFocus(): void }) {
  const card = draft.welcomeCard;
  const set = (patch: Partial<SurveyDraft['welcomeCard']>) => change({ welcomeCard: { ...card, ...patch } });
  return (
    <>
      <Check
        label="Show a welcome card"
        checked={card.enabled}
        onChange={(enabled) => {
          set({ enabled });
          onFocus();
        }}
      />
      {card.enabled && (
        <>
          <TextField
            label="Headline"
            value={card.headline}
            onFocus={onFocus}
            error={issues['welcomeCard.headline']}
            onChange={(headline) => set({ headline })}
          />
          <TextField
            label="Text (HTML)"
            multiline
            value={card.html}
            onFocus={onFocus}
            onChange={(html) => set({ html })}
          />
          <TextField label="Logo URL" value={card.fileUrl} onFocus={onFocus} onChange={(fileUrl) => set({ fileUrl })} />
          <TextField
            label="Button label"
            value={card.buttonLabel}
            onFocus={onFocus}
            onChange={(buttonLabel) => set({ buttonLabel })}
          />
          <Check
            label="Show the time to finish"
            checked={card.timeToFinish ?? false}
            onChange={(timeToFinish) => set({ timeToFinish })}
          />
          <Check
            label="Show the response count"
            checked={card.showResponseCount ?? false}
            onChange={(showResponseCount) => set({ showResponseCount })}
          />
        </>
      )}
    </>
  );
}

export function ThankYouCard({ draft, issues, change }: PartProps) {
  const card = draft.thankYouCard;
  const set = (patch: Partial<SurveyDraft['thankYouCard']>) => change({ thankYouCard: { ...card, ...patch } });
  return (
    <>
      <Check label="Show a thank-you card" checked={card.enabled} onChange={(enabled) => set({ enabled })} />
      {card.enabled && (
        <>
          <TextField label="Headline" value={card.headline} onChange={(headline) => set({ headline })} />
          <TextField label="Text" value={card.subheader} onChange={(subheader) => set({ subheader })} />
          <OptionalTextField
            label="Button label"
            value={card.buttonLabel}
            onChange={(buttonLabel) => set({ buttonLabel })}
          />
          <OptionalTextField
            label="Button link"
            value={card.buttonLink}
            error={issues['thankYouCard.buttonLink']}
            onChange={(buttonLink) => set({ buttonLink })}
          />
        </>
      )}
    </>
  );
}
