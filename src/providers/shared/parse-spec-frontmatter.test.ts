import { describe, expect, it } from 'vitest';
import { parseSpecFrontmatter } from './parse-spec-frontmatter.ts';

describe('parseSpecFrontmatter', () => {
  it.each([
    ['---\nstatus: approved\n---\n# Spec\n', 'approved'],
    ['---\nstatus: deprecated\n---\n', 'deprecated'],
    ['---\nstatus: draft\n---\n', 'draft'],
    ['---\r\nstatus: approved\r\ntitle: x\r\n---\r\n# CRLF\r\n', 'approved'],
    ['---\nstatus: "approved"\n---\n', 'approved'],
    ['---\r\nstatus: "deprecated"\r\n---\r\n# CRLF, quoted\r\n', 'deprecated'],
    ["---\nstatus: 'approved'\n---\n", 'approved'],
    ['\uFEFF---\nstatus: approved\n---\n', 'approved'],
    ['---  \ntitle: Spec\nstatus: approved # reviewed\nowners: [a, b]\n---  \nbody\n', 'approved'],
    ['---\nstatus: approved\n---', 'approved'],
  ])('reads the status from %j', (content, status) => {
    expect(parseSpecFrontmatter(content)).toEqual({ status, problem: null });
  });

  it.each([
    ['# No frontmatter\nstatus: approved\n'],
    ['\n---\nstatus: approved\n---\n'],
    ['----\nstatus: approved\n----\n'],
    [''],
    ['---\n---\n# empty frontmatter\n'],
    ['---\ntitle: no status\n---\n'],
  ])('is a draft without a problem: %j', (content) => {
    expect(parseSpecFrontmatter(content)).toEqual({ status: 'draft', problem: null });
  });

  it.each([
    ['---\nstatus: [approved\n---\n', /invalid YAML in the frontmatter \(line \d+\): Flow sequence/],
    [
      '---\ntitle: a: b\nstatus: approved\n---\n',
      /invalid YAML in the frontmatter \(line 2\): Nested mappings/,
    ],
    ['---\nstatus: approved\nstatus: draft\n---\n', /invalid YAML .*\(line 3\): Map keys must be unique/],
    ['---\nstatus: approved\n# never closed\n', /never closed: expected a "---" line/],
    ['---\nstatus: Approved\n---\n', /status is "Approved"; expected "status: draft", "status: approved"/],
    ['---\nstatus: aproved\n---\n', /status is "aproved"/],
    ['---\nstatus: 1\n---\n', /status is number 1/],
    ['---\nstatus: true\n---\n', /status is boolean true/],
    ['---\nstatus:\n---\n', /status is empty/],
    ['---\nstatus: [approved]\n---\n', /status is a list/],
    ['---\nstatus: {a: 1}\n---\n', /status is a mapping/],
    ['---\n- status: approved\n---\n', /the frontmatter is a list, not "key: value" lines/],
    ['---\napproved\n---\n', /the frontmatter is a string/],
  ])('reports broken frontmatter %j as a draft with a problem', (content, problem) => {
    const result = parseSpecFrontmatter(content);
    expect(result.status).toBe('draft');
    expect(result.problem).toMatch(problem);
  });
});
