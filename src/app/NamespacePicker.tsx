import './shared-chunk';
import { Picker } from '../components/Picker';
import { useNamespaces } from '../features/namespaces';
import { keyedOptions } from '../lib/options';

/** The sidebar's namespace switcher once opened: searchable by name or key (loaded on first open). */
export default function NamespacePicker({
  value,
  disabled,
  onChange,
}: {
  value: string;
  disabled: boolean;
  onChange(key: string): void;
}) {
  const namespaces = useNamespaces();
  return (
    <Picker
      label="Namespace"
      placeholder={value}
      options={keyedOptions(namespaces.data?.namespaces ?? [])}
      value={value}
      onChange={onChange}
      disabled={disabled}
      defaultOpen
    />
  );
}
