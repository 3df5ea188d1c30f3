import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Report } from '../engine/model/report';
import {
  HOSTILE_API_KEY,
  HOSTILE_BEARER_TOKEN,
  HOSTILE_PASSWORD,
  conformantReport,
  hostileReport,
  largeReport,
  sampleReport,
  schemaV0Report,
} from '../testing/fixtures/reports';
import { EXPORT_FORMATS, FORMATS, exportReport, isExportFormat, loadReport, type ExportFormat } from './index';

const SECRETS = [HOSTILE_BEARER_TOKEN, HOSTILE_API_KEY, HOSTILE_PASSWORD];

afterEach(() => vi.restoreAllMocks());

describe('FORMATS and file names', () => {
  it('lists json, markdown, junit, html and sarif, and each export is named a2a-report-<slug>-<stamp>.<ext>', () => {
    expect(EXPORT_FORMATS).toEqual(['json', 'markdown', 'junit', 'html', 'sarif']);
    for (const format of EXPORT_FORMATS) {
      const { file, fallback } = exportReport(sampleReport(), format);
      expect(fallback).toBeUndefined();
      expect(file.filename).toBe(`a2a-report-currency-agent-20261129-195736.${FORMATS[format].extension}`);
      expect(file.mimeType).toBe(FORMATS[format].mimeType);
      expect(file.body.length).toBeGreaterThan(500);
    }
    expect(isExportFormat('junit')).toBe(true);
    expect(isExportFormat('toString')).toBe(false);
    expect(isExportFormat('pdf')).toBe(false);
  });
});

describe('redaction in every format', () => {
  for (const format of EXPORT_FORMATS) {
    it(`no bearer token, API key or URL password of the hostile report appears in ${format}`, () => {
      const { file, fallback } = exportReport(hostileReport(), format);
      expect(fallback).toBeUndefined();
      for (const secret of SECRETS) {
        expect(file.body).not.toContain(secret);
        // Nor a recognizable part of it (e.g. the token without its JWT header).
        expect(file.body).not.toContain(secret.slice(-12));
      }
      expect(file.body).toContain('REDACTED');
    });
  }

  it('the hostile fixture really carries the secrets (so the test above can fail)', () => {
    const raw = JSON.stringify(hostileReport());
    for (const secret of SECRETS) expect(raw).toContain(secret);
  });

  it('the raw-JSON fallback is redacted too', () => {
    const broken = { ...hostileReport(), summary: 'not a summary' };
    const { file, fallback } = exportReport(broken, 'markdown');
    expect(fallback).toBeDefined();
    for (const secret of SECRETS) expect(file.body).not.toContain(secret);
  });
});

describe('JSON round trip', () => {
  for (const [name, make] of [
    ['sample', sampleReport],
    ['hostile', hostileReport],
    ['conformant', conformantReport],
  ] as const) {
    it(`${name}: export -> loadReport -> export gives the same JSON`, () => {
      const first = exportReport(make(), 'json').file.body;
      const loaded = loadReport(first);
      expect(loaded.ok, loaded.ok ? '' : loaded.error).toBe(true);
      if (!loaded.ok) return;
      expect(loaded.migratedFrom).toBeUndefined();
      expect(exportReport(loaded.report, 'json').file.body).toBe(first);
      expect(JSON.parse(first)).toEqual(JSON.parse(JSON.stringify(loaded.report)));
    });
  }

  it('the JSON export keeps everything: results, targets and every event', () => {
    const report = sampleReport();
    const parsed = JSON.parse(exportReport(report, 'json').file.body) as Report;
    expect(parsed.events).toHaveLength(report.events!.length);
    expect(parsed.schemaVersion).toBe(2);
    expect(parsed.categories).toEqual(report.categories);
    expect(parsed.targets).toEqual(report.targets);
  });

  it('exports a schemaVersion 0 report after migrating it', () => {
    const { file, fallback } = exportReport(schemaV0Report(), 'markdown');
    expect(fallback).toBeUndefined();
    expect(file.body).toContain('# A2A conformance report: Legacy Agent');
    expect(file.body).toContain('| task-cancel (v0.lifecycle.task-cancel) | lifecycle | Canceled task should be in canceled state | — |');
  });
});

describe('fallback: export never loses data', () => {
  it('an invalid report yields its raw JSON, with a reason naming the problem', () => {
    const report = sampleReport() as unknown as Record<string, unknown>;
    report.summary = { total: 'eleven' };
    for (const format of EXPORT_FORMATS) {
      const { file, fallback } = exportReport(report, format);
      expect(fallback?.reason).toMatch(
        /^The report is not valid, so no .+ export could be built \(summary\.total: .*\); here is the raw report as JSON instead\.$/,
      );
      expect(file.filename).toBe('a2a-report-currency-agent-20261129-195736.json');
      expect(file.mimeType).toBe('application/json');
      const raw = JSON.parse(file.body) as Record<string, unknown>;
      expect(raw.summary).toEqual({ total: 'eleven' });
      expect(raw.events).toHaveLength((report.events as unknown[]).length);
    }
  });

  it('a format that fails while building yields the JSON report and says which format failed', () => {
    vi.spyOn(FORMATS.junit, 'build').mockImplementation(() => {
      throw new Error('simulated xml failure');
    });
    const report = sampleReport();
    const { file, fallback } = exportReport(report, 'junit');
    expect(fallback?.reason).toBe('Building the JUnit export failed (simulated xml failure); here is the report as JSON instead.');
    expect(JSON.parse(file.body)).toEqual(JSON.parse(JSON.stringify(report)));
    // The other formats are unaffected.
    expect(exportReport(report, 'markdown').fallback).toBeUndefined();
  });

  it('a newer schema version falls back with an actionable reason', () => {
    const { fallback } = exportReport({ ...sampleReport(), schemaVersion: 99 }, 'html');
    expect(fallback?.reason).toContain('schemaVersion 99, newer than this tool reads (2). Update a2a-interop to open it');
  });

  it('never throws, whatever it is given', () => {
    const cyclic: Record<string, unknown> = { agentName: 'Loop' };
    cyclic.self = cyclic;
    let deep: unknown = 1;
    for (let i = 0; i < 50_000; i++) deep = { d: deep };
    const throwing = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no keys for you');
        },
      },
    );
    const inputs: unknown[] = [undefined, null, 0, 'text', [], 10n, cyclic, deep, throwing, { schemaVersion: 1 }];
    for (const input of inputs) {
      for (const format of [...EXPORT_FORMATS, 'pdf' as ExportFormat]) {
        const result = exportReport(input, format);
        expect(result.fallback?.reason).toBeTruthy();
        expect(result.file.mimeType).toBe('application/json');
        expect(() => JSON.parse(result.file.body)).not.toThrow();
      }
    }
    expect(exportReport('x', 'pdf' as ExportFormat).fallback?.reason).toMatch(/^Unknown export format "pdf"/);
    expect(JSON.parse(exportReport(cyclic, 'json').file.body)).toEqual({ agentName: 'Loop', self: '[circular reference: cut]' });
  });
});

describe('large runs', () => {
  it('a 10,000-event report exports in every format without falling back', () => {
    const report = largeReport(10_000);
    expect(report.events).toHaveLength(10_000);
    const ids = Object.values(report.categories).flatMap((results) => results.map((r) => r.id));
    expect(ids).toHaveLength(60);
    for (const format of EXPORT_FORMATS) {
      const { file, fallback } = exportReport(report, format);
      expect(fallback, format).toBeUndefined();
      expect(
        ids.filter((id) => !file.body.includes(id)),
        format,
      ).toEqual([]);
    }
  });
});
