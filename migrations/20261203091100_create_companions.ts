import type { Knex } from 'knex';

// Companions (issue 32): personas with their own prompt, maybe a model, a content level and a
// greeting; per-member grants (a household companion at `child` is everyone's unless withheld) and
// favorites. Three come with Hearth.
const BUILTIN = [
  {
    id: 'homework-helper',
    name: 'Homework helper',
    description: 'Explains school topics step by step and checks your thinking, without doing the homework for you.',
    avatar: '📚',
    system_prompt: 'You are a patient homework helper for a young learner. Explain step by step in simple words, ask a question back to check understanding, and never simply hand over the answer to homework.',
    level: 'child',
    greeting: 'Hi! What are you working on today?',
  },
  {
    id: 'cooking-helper',
    name: 'Cooking helper',
    description: 'Ideas for meals from what is in the kitchen, recipes and substitutions.',
    avatar: '🍳',
    system_prompt: 'You are a friendly home cooking helper. Suggest meals from the ingredients mentioned, give clear recipes with quantities and times, and offer substitutions. Mention food safety when it matters.',
    level: 'teen',
    greeting: 'Hello! What is in your fridge, or what do you feel like eating?',
  },
  {
    id: 'trip-planner',
    name: 'Trip planner',
    description: 'Plans days out and holidays: routes, packing lists, budgets.',
    avatar: '🧭',
    system_prompt: 'You are a practical trip planner. Ask where, when, who and the budget if not given, then propose a simple plan with timings, a packing list and things to check before leaving.',
    level: 'teen',
    greeting: 'Where would you like to go?',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('companions', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.text('avatar').notNullable();
    t.text('system_prompt').notNullable();
    t.text('model');
    t.text('level').notNullable().checkIn(['child', 'teen', 'adult']);
    t.text('greeting').notNullable();
    t.boolean('builtin').notNullable().defaultTo(false);
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
  });
  await knex.schema.createTable('companion_grants', (t) => {
    t.text('companion_id').notNullable().references('id').inTable('companions').onDelete('CASCADE');
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.boolean('granted').notNullable();
    t.text('updated_at').notNullable();
    t.primary(['companion_id', 'user_id']);
  });
  await knex.schema.createTable('companion_favorites', (t) => {
    t.text('companion_id').notNullable().references('id').inTable('companions').onDelete('CASCADE');
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('created_at').notNullable();
    t.primary(['companion_id', 'user_id']);
  });
  const at = '2026-12-03T00:00:00.000Z';
  await knex('companions').insert(BUILTIN.map((c) => ({ ...c, model: null, builtin: true, created_at: at, updated_at: at })));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('companion_favorites');
  await knex.schema.dropTableIfExists('companion_grants');
  await knex.schema.dropTableIfExists('companions');
}
