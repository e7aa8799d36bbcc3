// Notification channels and chat skills (issue 38). The admin's channel servers (ntfy, Gotify,
// e-mail, Telegram; secrets kept here, never answered), each member's channel addresses and
// routes, the Telegram link codes (hashed) and linked chats, the delivery log; and skills: chat
// instruction packs, the household's (owner_id null) and each member's own. The three built-in
// household skills are seeded here, editable by admins.
import type { Knex } from 'knex';

const BUILT_IN = [
  {
    id: 'builtin-meal-planner',
    name: 'Meal planner',
    description: 'Plans the week’s meals and the shopping list that goes with them.',
    instructions:
      'You help the household plan meals. Ask how many people eat, any allergies or dislikes, and how much time there is to cook. Propose a plan day by day, reuse leftovers, and end with one shopping list grouped by shop section.',
    tools: [],
    starterPrompts: ['Plan dinners for this week for four people', 'What can I cook with rice, eggs and spinach?', 'A cheap vegetarian week, please'],
  },
  {
    id: 'builtin-homework-checker',
    name: 'Homework checker',
    description: 'Checks a child’s homework and explains mistakes without giving the answers away.',
    instructions:
      'You check homework for a school child. Point out which answers are wrong and why, in simple words, and give a hint towards the right method. Do not write the finished answers; ask the child to try again. Be kind and encouraging.',
    tools: [],
    starterPrompts: ['Check my maths: 7 x 8 = 54, 9 x 6 = 54', 'Is this sentence right: "Me and him goes to school"?', 'Explain fractions with pizza'],
  },
  {
    id: 'builtin-packing-list',
    name: 'Packing list',
    description: 'Makes a packing list for a trip: who, where, how long and what weather.',
    instructions:
      'You make packing lists. Ask where the trip goes, for how long, who travels (ages), and what the weather will be if it is not known. Answer with a checklist grouped by person and by kind (clothes, wash bag, documents, electronics, for the children), and nothing that is not needed.',
    tools: [],
    starterPrompts: ['A week at the beach with two small children', 'A weekend of hiking in the mountains', 'A business trip of three days'],
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notify_channels', (t) => {
    t.string('type').primary(); // ntfy | gotify | email | telegram
    t.text('config').notNullable(); // JSON: the non-secret settings
    t.text('secret'); // the token, password or bot token; never answered
    t.string('bot_username');
    t.string('updated_at').notNullable();
  });
  await knex.schema.createTable('notify_members', (t) => {
    t.string('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.string('ntfy_topic');
    t.text('gotify_token');
    t.string('email_address');
    t.string('telegram_chat_id');
    t.string('telegram_linked_at');
    t.string('telegram_blocked_at'); // Telegram answered 403: the member blocked the bot
    t.text('routes').notNullable(); // JSON: {type: channel[]}
    t.string('updated_at').notNullable();
  });
  await knex.schema.createTable('notify_link_codes', (t) => {
    t.string('code_hash').primary();
    t.string('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('expires_at').notNullable();
  });
  await knex.schema.createTable('notify_deliveries', (t) => {
    t.string('id').primary();
    t.string('at').notNullable();
    t.string('user_id').references('id').inTable('users').onDelete('CASCADE');
    t.string('notification_type').notNullable();
    t.string('channel').notNullable();
    t.boolean('ok').notNullable();
    t.integer('attempts').notNullable();
    t.string('message').notNullable();
    t.index(['at']);
  });
  await knex.schema.createTable('skills', (t) => {
    t.string('id').primary();
    t.string('owner_id').references('id').inTable('users').onDelete('CASCADE'); // null: the household's
    t.string('name').notNullable();
    t.string('description').notNullable();
    t.text('instructions').notNullable();
    t.text('tools').notNullable(); // JSON string[]
    t.text('starter_prompts').notNullable(); // JSON string[]
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.index(['owner_id']);
  });
  const now = new Date('2026-12-03T15:41:00Z').toISOString();
  await knex('skills').insert(
    BUILT_IN.map((s) => ({ id: s.id, owner_id: null, name: s.name, description: s.description, instructions: s.instructions, tools: JSON.stringify(s.tools), starter_prompts: JSON.stringify(s.starterPrompts), created_at: now, updated_at: now })),
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['skills', 'notify_deliveries', 'notify_link_codes', 'notify_members', 'notify_channels']) await knex.schema.dropTableIfExists(t);
}
