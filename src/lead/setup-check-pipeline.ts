import { OPPORTUNITY_SOURCE_FIELD } from './opportunity.js';
import type { Probe } from './setup-check.js';
import { checkOpportunityField } from './setup-check-fields.js';

interface Pipeline {
  id?: string;
  name?: string;
  stages?: Array<{ id?: string; name?: string }>;
}

/**
 * With GHL_PIPELINE_ID and GHL_PIPELINE_STAGE_ID: the pipeline and its stage exist in the
 * location (`GET /opportunities/pipelines`, opportunities.readonly), the token may search and
 * create opportunities (a create without its required fields, refused before GoHighLevel acts),
 * and the opportunities' `lead_source` field is there (made with `fix`).
 */
export async function checkPipeline(probe: Probe, fix: boolean): Promise<void> {
  const { config } = probe;
  const { pipelineId, pipelineStageId } = config;
  if (!pipelineId || !pipelineStageId) {
    probe.ok(
      'GHL_PIPELINE_ID is not set: leads make no opportunity (set it and GHL_PIPELINE_STAGE_ID to have one made for each lead)',
    );
    return;
  }
  const listed = await probe.call(
    'GET',
    `/opportunities/pipelines?locationId=${encodeURIComponent(config.locationId)}`,
  );
  probe.scope(
    'opportunities.readonly',
    'to find the pipeline, and the opportunity an interrupted delivery may have made',
    listed,
    (a) => a.status === 200,
  );
  if (listed.status === 200) {
    const pipelines = (listed.json as { pipelines?: Pipeline[] } | null)?.pipelines ?? [];
    const pipeline = pipelines.find((p) => p.id === pipelineId);
    const stage = pipeline?.stages?.find((st) => st.id === pipelineStageId);
    const names = (list: Array<{ id?: string; name?: string }>) =>
      list.map((x) => `${x.name} (${x.id})`).join(', ') || 'none';
    if (!pipeline)
      probe.fix(
        `GHL_PIPELINE_ID ${pipelineId} is no pipeline of the location; its pipelines: ${names(pipelines)}`,
      );
    else if (!stage)
      probe.fix(
        `GHL_PIPELINE_STAGE_ID ${pipelineStageId} is no stage of the pipeline ${pipeline.name}; its stages: ${names(pipeline.stages ?? [])}`,
      );
    else probe.ok(`new leads go to the pipeline ${pipeline.name}, stage ${stage.name}`);
  }
  // Nothing to make it from: refused as invalid (400, 422) when the scope is there.
  const write = await probe.call('POST', '/opportunities/', {});
  probe.scope(
    'opportunities.write',
    'to make the opportunity',
    write,
    (a) => a.status === 400 || a.status === 422,
  );
  await checkOpportunityField(probe, OPPORTUNITY_SOURCE_FIELD, fix);
}

/**
 * With GHL_WORKFLOW_ID: the workflow exists and is published (`GET /workflows/`,
 * workflows.readonly); enrolling takes contacts.write, checked with the contacts.
 */
export async function checkWorkflow(probe: Probe): Promise<void> {
  const { config } = probe;
  if (!config.workflowId) {
    probe.ok(
      'GHL_WORKFLOW_ID is not set: no workflow is started for a lead (set it to the speed-to-lead workflow)',
    );
    return;
  }
  const listed = await probe.call(
    'GET',
    `/workflows/?locationId=${encodeURIComponent(config.locationId)}`,
  );
  probe.scope('workflows.readonly', 'to find the workflow', listed, (a) => a.status === 200);
  if (listed.status !== 200) return;
  const workflows =
    (listed.json as { workflows?: Array<{ id?: string; name?: string; status?: string }> } | null)
      ?.workflows ?? [];
  const workflow = workflows.find((w) => w.id === config.workflowId);
  if (!workflow)
    probe.fix(
      `GHL_WORKFLOW_ID ${config.workflowId} is no workflow of the location; its workflows: ${workflows.map((w) => `${w.name} (${w.id})`).join(', ') || 'none'}`,
    );
  else if (workflow.status !== 'published')
    probe.fix(
      `the workflow ${workflow.name} is ${workflow.status ?? 'not published'}: publish it, or contacts enrolled in it are not messaged`,
    );
  else probe.ok(`each lead enrols its contact in the workflow ${workflow.name}`);
}
