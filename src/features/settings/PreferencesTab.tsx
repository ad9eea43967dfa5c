import '../../app/shared-chunk';
import { Field } from '../../components/Field';
import { effectiveTheme, usePreferencesStore, type Theme, type Timezone } from '../../stores/preferences';
import { useConfig } from '../../api/meta';

export default function PreferencesTab() {
  const { theme, timezone, setTheme, setTimezone } = usePreferencesStore();
  const serverDefault = useConfig().ui.defaultTheme;
  return (
    <section aria-label="Preferences">
      <h2>Preferences</h2>
      <p className="muted">How the console looks and shows times in this browser.</p>
      <Field label="Theme">
        {(props) => (
          <select
            {...props}
            value={effectiveTheme(theme, serverDefault)}
            onChange={(event) => setTheme(event.target.value as Theme)}
          >
            <option value="light">Light</option>
            <option value="dark">Dark</option>
            <option value="system">System</option>
          </select>
        )}
      </Field>
      <Field label="Timezone">
        {(props) => (
          <select {...props} value={timezone} onChange={(event) => setTimezone(event.target.value as Timezone)}>
            <option value="utc">UTC</option>
            <option value="local">Local</option>
          </select>
        )}
      </Field>
    </section>
  );
}
