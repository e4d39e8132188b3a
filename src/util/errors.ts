// The error every domain refusal carries: a message, one ErrorCode and the fields a client
// reads beside it. The tool gate turns it into `{error, error_code, ...context}`; the domain never sees
// the transport.

import type { JsonObject } from './json-object.js';

/** Every `error_code` Athene reports (tool failures, job errors, front-door refusals; TOOLS.md), in one closed union. */
export type ErrorCode =
  | 'already_loaded' | 'ambiguous' | 'ambiguous_reference' | 'artifact_corrupt' | 'artifact_corrupted' | 'artifact_expired'
  | 'artifact_fingerprint_mismatch' | 'audit_source_refused' | 'audit_too_large' | 'audit_unavailable' | 'authorization_denied'
  | 'authorization_revoked' | 'backup_failed' | 'cancelled' | 'catalog_invalid' | 'category_not_allowed' | 'change_set_in_progress'
  | 'change_set_not_committable' | 'change_set_store_full' | 'change_set_too_large' | 'concurrent_change' | 'cursor_invalid'
  | 'destination_not_allowed' | 'destination_parent_missing' | 'digest_mismatch' | 'document_not_found' | 'external_term_not_found'
  | 'file_too_large' | 'forbidden_query_form' | 'id_in_use' | 'idempotency_conflict' | 'import_lock_changed' | 'import_lock_mismatch'
  | 'import_lock_missing' | 'incompatible_merge' | 'inconsistent_ontology' | 'internal_error' | 'invalid_argument' | 'invalid_change'
  | 'io_error' | 'job_artifact_limit' | 'job_artifact_too_large' | 'job_failed' | 'job_inputs_changed' | 'job_queue_full'
  | 'job_quota_exceeded' | 'job_reasoner_not_cancellable' | 'job_result_too_large' | 'job_type_not_allowed' | 'jobs_closed'
  | 'jobs_disabled' | 'journal_disabled' | 'journal_write_failed' | 'limit_exceeds_policy' | 'load_failed' | 'lockfile_unresolved'
  | 'lossy_format_refused' | 'mapping_exists' | 'mapping_revision_conflict' | 'mappings_invalid' | 'materialization_backup_published'
  | 'materialization_busy' | 'materialization_collision' | 'materialization_guarded_replacement_incomplete' | 'materialization_store_full'
  | 'materialization_verification_failed' | 'materialization_workspace_recovery_ambiguous' | 'materialization_workspace_recovery_applied'
  | 'metadata_conflict' | 'method_not_allowed' | 'mint_commit_incomplete' | 'mint_commit_reverted' | 'missing_imports'
  | 'network_denied' | 'no_active_ontology' | 'no_prefix_map' | 'no_reasoner_results' | 'no_session' | 'not_found' | 'not_loaded'
  | 'not_referenced' | 'not_regular_file' | 'nothing_to_redo' | 'nothing_to_undo' | 'owner_required' | 'parent_not_found'
  | 'parse_error' | 'policy_conflict' | 'policy_digest_conflict' | 'policy_exists' | 'policy_invalid' | 'policy_not_found'
  | 'policy_required' | 'precondition_changed' | 'prefix_conflict' | 'profile_not_found' | 'project_locked' | 'project_root_unknown'
  | 'proposal_fingerprint_mismatch' | 'proposal_in_progress' | 'protected_path' | 'provider_acquisition_stale' | 'provider_authority_changed'
  | 'provider_credential_missing' | 'provider_credential_unbound' | 'provider_disabled' | 'provider_network_denied'
  | 'provider_not_configured' | 'provider_origin_unbound' | 'provider_policy_changed' | 'provider_redaction_failed'
  | 'provider_unavailable' | 'query_error' | 'read_only' | 'reasoner_error' | 'reasoner_not_ready' | 'reasoner_timeout'
  | 'rebase_conflict' | 'rebase_failed' | 'release_gate_not_passed' | 'revision_changed_during_preview' | 'revision_conflict'
  | 'round_trip_mismatch' | 'rule_validation_budget_exceeded' | 'rule_validation_snapshot_changed' | 'rule_validation_snapshot_required'
  | 'service_not_allowed' | 'shacl_engine_error' | 'snapshot_changed' | 'source_not_found' | 'source_unstable' | 'source_write_not_allowed'
  | 'sssom_invalid' | 'stale_mapping_revision' | 'stale_model_revision' | 'store_absent' | 'store_conflict' | 'store_full'
  | 'store_invalid' | 'target_digest_mismatch' | 'target_exists' | 'target_not_file' | 'temporarily_unavailable' | 'term_fingerprint_mismatch'
  | 'timeout' | 'unknown_artifact' | 'unknown_axiom_type' | 'unknown_change_set' | 'unknown_job' | 'unknown_mapping'
  | 'unknown_proposal' | 'unknown_reasoner' | 'unknown_tool' | 'unsupported_category' | 'verify_baseline_unavailable'
  | 'window_unavailable' | 'workspace_locked' | 'write_declined';

/** A refusal by domain code; `context` fields are merged into the failure body as they are. */
export class DomainError extends Error {
  constructor(message: string, readonly code: ErrorCode, readonly context: JsonObject = {}) {
    super(message);
    this.name = 'DomainError';
  }
}
