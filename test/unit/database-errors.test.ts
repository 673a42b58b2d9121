import { DatabaseError } from 'pg';
import { statementRolledBack } from '../../src/storage/database/database-errors';
import { replicationWaitCut } from '../../src/storage/database/write-probe';

/** An ErrorResponse as pg reports it, with a translated message: only the SQLSTATE may decide. */
function answered(code: string): DatabaseError {
  const error = new DatabaseError('Meldung in der Sprache des Servers', 0, 'error');
  error.code = code;
  return error;
}

describe('what a write batch error says of its outcome', () => {
  it.each(['23505', '22P02', '25006', '40001', '40P01', '57014', '53300'])('%s rolled the statement back', (code) => {
    expect(statementRolledBack(answered(code))).toBe(true);
  });

  it.each(['08006', '57P01', '57P02', '57P03', '58030', 'XX000'])('%s may come after a local commit', (code) => {
    expect(statementRolledBack(answered(code))).toBe(false);
  });

  it('knows nothing of errors PostgreSQL did not answer with', () => {
    expect(statementRolledBack(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(statementRolledBack(new Error('Cannot use a pool after calling end on the pool'))).toBe(false);
  });

  it('counts any warning, by SQLSTATE class, as a commit that stopped waiting for the standby', () => {
    expect(replicationWaitCut({ code: '01000' })).toBe(true);
    expect(replicationWaitCut({ code: '00000' })).toBe(false);
    expect(replicationWaitCut({})).toBe(false);
  });
});
