import { describe, expect, it } from 'vitest';
import { missingClasses, readObjectInfo } from '../../../server/adapters/image-engine/object-info.js';
import { validateGraph, type GraphValidation } from '../../../server/adapters/image-engine/validate-graph.js';
import { coreObjectInfo, fullObjectInfo } from '../../fixtures/comfyui/index.js';

const info = coreObjectInfo();

type Graph = Record<string, { class_type?: string; inputs?: Record<string, unknown>; _meta?: { title: string } }>;

/** A small valid txt2img graph in API format (hand-written, as the engine's docs show one). */
function txt2img(): Graph {
  return {
    '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sdxl_base.safetensors' } },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: 'a red fox', clip: ['4', 1] } },
    '7': { class_type: 'CLIPTextEncode', inputs: { text: 'blurry', clip: ['4', 1] } },
    '5': { class_type: 'EmptyLatentImage', inputs: { width: 1024, height: 1024, batch_size: 1 } },
    '3': {
      class_type: 'KSampler',
      inputs: { seed: 42, steps: 25, cfg: 4.5, sampler_name: 'dpmpp_2m', scheduler: 'karras', denoise: 1, model: ['4', 0], positive: ['6', 0], negative: ['7', 0], latent_image: ['5', 0] },
    },
    '8': { class_type: 'VAEDecodeTiled', inputs: { samples: ['3', 0], vae: ['4', 2], tile_size: 512, overlap: 64, temporal_size: 64, temporal_overlap: 8 } },
    '9': { class_type: 'SaveImage', inputs: { images: ['8', 0], filename_prefix: 'hearth' } },
  };
}

function refused(r: GraphValidation): Extract<GraphValidation, { ok: false }> {
  if (r.ok) throw new Error('expected the graph to be refused');
  return r;
}

describe('readObjectInfo', () => {
  it('reads inputs, enums, limits and outputs of the reference schemas', () => {
    const ks = info.get('KSampler');
    expect(ks?.isOutputNode).toBe(false);
    expect(ks?.outputTypes).toEqual(['LATENT']);
    const steps = ks?.inputs.find((i) => i.name === 'steps');
    expect(steps).toMatchObject({ category: 'required', type: 'INT', options: { default: 20, min: 1, max: 10000 } });
    const sampler = ks?.inputs.find((i) => i.name === 'sampler_name');
    expect(sampler?.enumStyle).toBe('legacy');
    expect(sampler?.enumValues).toHaveLength(42);
    expect(ks?.inputs.find((i) => i.name === 'denoise')?.category).toBe('required');
    // a V3 node declares its enum as COMBO with options
    const up = info.get('UpscaleModelLoader')?.inputs[0];
    expect(up).toMatchObject({ type: 'COMBO', enumStyle: 'v3', enumValues: ['RealESRGAN_x4plus.pth', '4x-UltraSharp.pth'] });
    expect(info.get('SaveImage')?.isOutputNode).toBe(true);
    expect(info.size).toBe(96);
  });

  it('merges the custom packs and names the classes an engine lacks', () => {
    const full = fullObjectInfo();
    expect(full.get('IPAdapterFaceID')?.outputTypes).toEqual(['MODEL', 'IMAGE']);
    expect(missingClasses(info, ['KSampler', 'FaceDetailer', 'IPAdapterFaceID', 'FaceDetailer'])).toEqual(['FaceDetailer', 'IPAdapterFaceID']);
    expect(missingClasses(full, ['KSampler', 'FaceDetailer'])).toEqual([]);
  });

  it('refuses an answer that is not object_info', () => {
    expect(() => readObjectInfo({ KSampler: { input: { required: { steps: 'INT' } } } })).toThrow();
    expect(() => readObjectInfo(['KSampler'])).toThrow();
  });
});

describe('validateGraph, as the engine answers POST /prompt', () => {
  it('accepts a valid graph and names its outputs', () => {
    expect(validateGraph(txt2img(), info)).toEqual({ ok: true, outputs: ['9'], node_errors: {} });
    expect(validateGraph(txt2img(), info, { strict: true })).toEqual({ ok: true, outputs: ['9'], node_errors: {} });
  });

  it('refuses an unknown class (a missing custom node) before anything else, with no node errors', () => {
    const g = txt2img();
    g['20'] = { class_type: 'FaceDetailer', inputs: {}, _meta: { title: 'Fix faces' } };
    expect(refused(validateGraph(g, info))).toEqual({
      ok: false,
      error: { type: 'invalid_prompt', message: 'Cannot execute because node FaceDetailer does not exist.', details: "Node ID '#20'", extra_info: {} },
      node_errors: {},
    });
    // the newer engines' dialect (API.md §12)
    expect(refused(validateGraph(g, info, { dialect: 'newer' })).error).toEqual({
      type: 'missing_node_type',
      message: "Node 'Fix faces' not found. The custom node may not be installed.",
      details: "Node ID '#20'",
      extra_info: { node_id: '20', class_type: 'FaceDetailer', node_title: 'Fix faces' },
    });
  });

  it('refuses a node without class_type and a graph without an output node', () => {
    const g = txt2img();
    g['20'] = { inputs: {} };
    expect(refused(validateGraph(g, info)).error).toEqual({ type: 'invalid_prompt', message: 'Cannot execute because a node is missing the class_type property.', details: "Node ID '#20'", extra_info: {} });
    const h = txt2img();
    delete h['9'];
    expect(refused(validateGraph(h, info))).toEqual({ ok: false, error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} }, node_errors: {} });
  });

  it('refuses a missing required input and lists the node with the output that depends on it', () => {
    const g = txt2img();
    delete g['3']?.inputs?.steps;
    const r = refused(validateGraph(g, info));
    expect(r.error).toEqual({ type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} });
    expect(r.node_errors).toEqual({
      '3': { errors: [{ type: 'required_input_missing', message: 'Required input is missing', details: 'steps', extra_info: { input_name: 'steps' } }], dependent_outputs: ['9'], class_type: 'KSampler' },
    });
  });

  it("names the output's own reasons in the error details", () => {
    const g = txt2img();
    delete g['9']?.inputs?.filename_prefix;
    expect(refused(validateGraph(g, info)).error.details).toBe('Required input is missing: filename_prefix');
  });

  it('refuses an enum value not in the list, hiding lists over 20 values', () => {
    const g = txt2img();
    g['3']!.inputs!.sampler_name = 'dpmpp_2m_karras';
    const r = refused(validateGraph(g, info));
    expect(r.node_errors['3']?.errors).toEqual([
      { type: 'value_not_in_list', message: 'Value not in list', details: "sampler_name: 'dpmpp_2m_karras' not in (list of length 42)", extra_info: { input_name: 'sampler_name', input_config: null, received_value: 'dpmpp_2m_karras' } },
    ]);
    const h = txt2img();
    h['10'] = { class_type: 'ImageScale', inputs: { image: ['8', 0], upscale_method: 'lanczos', width: 512, height: 512, crop: 'middle' } };
    h['9']!.inputs!.images = ['10', 0];
    const reason = refused(validateGraph(h, info)).node_errors['10']?.errors[0];
    expect(reason?.details).toBe("crop: 'middle' not in ['disabled', 'center']");
    expect(reason?.extra_info.input_config).toEqual([['disabled', 'center'], {}]);
  });

  it('refuses numbers outside min and max, in the engine`s words', () => {
    const g = txt2img();
    g['3']!.inputs!.cfg = 101;
    g['5']!.inputs!.width = 8;
    const r = refused(validateGraph(g, info));
    expect(r.node_errors['3']?.errors[0]).toMatchObject({ type: 'value_bigger_than_max', message: 'Value 101.0 bigger than max of 100', details: 'cfg' });
    expect(r.node_errors['5']?.errors[0]).toMatchObject({ type: 'value_smaller_than_min', message: 'Value 8 smaller than min of 16', details: 'width', extra_info: { input_name: 'width', received_value: 8 } });
    expect(r.node_errors['3']?.dependent_outputs).toEqual(['9']);
  });

  it('coerces widget values as Python does, and refuses what does not convert', () => {
    const g = txt2img();
    g['3']!.inputs!.steps = '20';
    g['3']!.inputs!.cfg = { __value__: 5 };
    expect(validateGraph(g, info).ok).toBe(true);
    // strict mode (Hearth's own graphs) wants the JSON type itself
    expect(refused(validateGraph(g, info, { strict: true })).node_errors['3']?.errors[0]).toMatchObject({ type: 'invalid_input_type', details: 'steps, 20' });
    g['3']!.inputs!.steps = 'abc';
    expect(refused(validateGraph(g, info)).node_errors['3']?.errors[0]).toEqual({
      type: 'invalid_input_type',
      message: 'Failed to convert an input value to a INT value',
      details: "steps, abc, invalid literal for int() with base 10: 'abc'",
      extra_info: { input_name: 'steps', input_config: ['INT', expect.objectContaining({ min: 1 })], received_value: 'abc', exception_message: "invalid literal for int() with base 10: 'abc'" },
    });
  });

  it('refuses a link whose output type does not match the input type', () => {
    const g = txt2img();
    g['8']!.inputs!.vae = ['4', 1];
    expect(refused(validateGraph(g, info)).node_errors['8']?.errors).toEqual([
      {
        type: 'return_type_mismatch',
        message: 'Return type mismatch between linked nodes',
        details: 'vae, received_type(CLIP) mismatch input_type(VAE)',
        extra_info: { input_name: 'vae', input_config: ['VAE', {}], received_type: 'CLIP', linked_node: ['4', 1] },
      },
    ]);
  });

  it('pins a link to a missing node on the node that holds it, replacing its other reasons', () => {
    const g = txt2img();
    g['3']!.inputs!.positive = ['99', 0];
    g['3']!.inputs!.steps = 0;
    const r = refused(validateGraph(g, info));
    expect(Object.keys(r.node_errors)).toEqual(['3']);
    expect(r.node_errors['3']).toEqual({
      errors: [
        {
          type: 'exception_during_inner_validation',
          message: 'Exception when validating inner node',
          details: "'99'",
          extra_info: { input_name: 'samples', input_config: ['LATENT', {}], exception_message: "'99'", exception_type: 'KeyError', traceback: [], linked_node: ['3', 0] },
        },
      ],
      dependent_outputs: ['9'],
      class_type: 'KSampler',
    });
  });

  it('refuses an output index out of range, and a bad link on an output node itself', () => {
    const g = txt2img();
    g['8']!.inputs!.vae = ['4', 7];
    expect(refused(validateGraph(g, info)).node_errors['8']?.errors[0]).toMatchObject({ type: 'exception_during_inner_validation', details: 'tuple index out of range', extra_info: { exception_type: 'IndexError' } });
    const h = txt2img();
    h['9']!.inputs!.images = ['77', 0];
    expect(refused(validateGraph(h, info)).node_errors['9']?.errors).toEqual([
      { type: 'exception_during_validation', message: 'Exception when validating node', details: "'77'", extra_info: { exception_type: 'KeyError', traceback: [] } },
    ]);
    const k = txt2img();
    k['9']!.inputs!.images = ['8', 0, 1];
    expect(refused(validateGraph(k, info)).node_errors['9']?.errors[0]).toMatchObject({ type: 'bad_linked_input', details: 'images' });
  });

  it('accepts a negative output index as Python does, but not in strict mode', () => {
    const g = txt2img();
    g['8']!.inputs!.vae = ['4', -1];
    expect(validateGraph(g, info).ok).toBe(true);
    expect(refused(validateGraph(g, info, { strict: true })).node_errors['8']?.errors[0]?.type).toBe('bad_linked_input');
  });

  it('checks a LoadImage file against the input folder', () => {
    const g = txt2img();
    g['20'] = { class_type: 'LoadImage', inputs: { image: 'missing.png' } };
    g['21'] = { class_type: 'SaveImage', inputs: { images: ['20', 0], filename_prefix: 'x' } };
    const r = validateGraph(g, info);
    // the other output still runs: a 200 with node_errors
    expect(r).toEqual({
      ok: true,
      outputs: ['9'],
      node_errors: { '20': { errors: [{ type: 'custom_validation_failed', message: 'Custom validation failed for node', details: 'image - Invalid image file: missing.png', extra_info: { input_name: 'image' } }], dependent_outputs: ['21'], class_type: 'LoadImage' } },
    });
    expect(validateGraph(g, info, { inputFileExists: (name) => name === 'missing.png' }).node_errors).toEqual({});
    g['20']!.inputs!.image = 'example.png [input]';
    expect(validateGraph(g, info).node_errors).toEqual({});
  });

  it('leaves V3 COMBO values to run time in 0.3.64 and checks them in the newer dialect', () => {
    const g = txt2img();
    g['10'] = { class_type: 'ImageScaleToTotalPixels', inputs: { image: ['8', 0], upscale_method: 'super', megapixels: 1 } };
    g['9']!.inputs!.images = ['10', 0];
    expect(validateGraph(g, info).ok).toBe(true);
    expect(refused(validateGraph(g, info, { dialect: 'newer' })).node_errors['10']?.errors[0]).toMatchObject({
      type: 'value_not_in_list',
      details: "upscale_method: 'super' not in ['nearest-exact', 'bilinear', 'area', 'bicubic', 'lanczos']",
    });
  });

  it('in strict mode also refuses unused nodes, undeclared inputs and cycles, and takes any model file name', () => {
    const g = txt2img();
    g['20'] = { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 512, batch_size: 1 } };
    g['3']!.inputs!.denoize = 0.5;
    expect(validateGraph(g, info).ok).toBe(true);
    // the engine's lists are the files on disk; the fixture's are placeholders
    g['4']!.inputs!.ckpt_name = 'my_own_model.safetensors';
    expect(refused(validateGraph(g, info)).node_errors['4']?.errors[0]?.type).toBe('value_not_in_list');
    const r = refused(validateGraph(g, info, { strict: true }));
    expect(r.node_errors['20']?.errors[0]?.type).toBe('dangling_node');
    expect(r.node_errors['3']?.errors[0]).toMatchObject({ type: 'unknown_input', details: 'denoize' });
    expect(r.node_errors['4']).toBeUndefined();

    const c = txt2img();
    c['30'] = { class_type: 'ImageInvert', inputs: { image: ['31', 0] } };
    c['31'] = { class_type: 'ImageInvert', inputs: { image: ['30', 0] } };
    c['32'] = { class_type: 'SaveImage', inputs: { images: ['31', 0], filename_prefix: 'x' } };
    expect(validateGraph(c, info).ok).toBe(true);
    expect(refused(validateGraph(c, info, { dialect: 'newer' })).error).toEqual({
      type: 'dependency_cycle',
      message: 'Dependency cycle detected',
      details: '30 (ImageInvert) -> 31 (ImageInvert) -> 30 (ImageInvert)',
      extra_info: { cycle_nodes: ['30', '31', '30'] },
    });
  });
});
