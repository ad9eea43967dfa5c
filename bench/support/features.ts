// A generated Flipt features.yml for the scale benches: N flags in one namespace, one in ten with a
// rule (over one of 20 segments, with a 50/50 distribution) and a boolean rollout, the rest plain
// variant flags with two variants and an attachment.
export function generateFeatures(flagCount: number, namespace = 'default'): string {
  const lines = ['version: "1.3"', `namespace: ${namespace}`, 'flags:'];
  for (let i = 0; i < flagCount; i++) {
    const key = `flag_${String(i).padStart(6, '0')}`;
    if (i % 10 === 9) {
      lines.push(
        `  - key: ${key}`,
        `    name: Flag ${i}`,
        '    type: BOOLEAN_FLAG_TYPE',
        '    enabled: true',
        '    rollouts:',
        `      - segment: { keys: [segment_${i % 20}], value: true }`,
        '      - threshold: { percentage: 50, value: false }',
      );
      continue;
    }
    lines.push(
      `  - key: ${key}`,
      `    name: Flag ${i}`,
      `    description: Generated flag number ${i} for the scale benchmarks`,
      '    type: VARIANT_FLAG_TYPE',
      `    enabled: ${i % 3 !== 0}`,
      '    variants:',
      '      - key: control',
      '        name: Control',
      '      - key: treatment',
      '        name: Treatment',
      '        attachment: { color: blue, size: 12 }',
    );
    if (i % 10 === 0) {
      lines.push(
        '    rules:',
        `      - segment: segment_${i % 20}`,
        '        distributions:',
        '          - { variant: control, rollout: 50 }',
        '          - { variant: treatment, rollout: 50 }',
      );
    }
  }
  lines.push('segments:');
  for (let s = 0; s < 20; s++) {
    lines.push(
      `  - key: segment_${s}`,
      `    name: Segment ${s}`,
      '    match_type: ALL_MATCH_TYPE',
      '    constraints:',
      `      - { type: STRING_COMPARISON_TYPE, property: plan, operator: eq, value: plan_${s} }`,
      '      - { type: NUMBER_COMPARISON_TYPE, property: age, operator: gte, value: "18" }',
    );
  }
  return `${lines.join('\n')}\n`;
}
