// The skill picker above a chat: "No skill" or one of the member's skills (the household's and
// their own). The chosen skill's instructions shape the answers and its starter prompts are offered
// while the chat is new (ConversationView shows them through SkillStarters).
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useSkills } from './queries';
import './skills.css';

export function SkillMenu({ value, onChange }: { value: string | undefined; onChange: (id: string | undefined) => void }): ReactElement | null {
  const q = useSkills();
  if (q.isError) return <p className="muted skill-menu">Skills did not load.</p>;
  const skills = q.data?.skills ?? [];
  const chosen = skills.find((s) => s.id === value);
  return (
    <div className="skill-menu">
      <label className="skill-menu__label" htmlFor="chat-skill">
        Skill
      </label>
      <select id="chat-skill" className="skill-menu__select" value={value ?? ''} disabled={q.isPending} onChange={(ev) => onChange(ev.target.value || undefined)}>
        <option value="">{q.isPending ? 'Loading…' : 'No skill'}</option>
        {skills.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      <Link to="/skills" className="skill-menu__manage">
        Your skills
      </Link>
      {value && !q.isPending && !chosen ? <p className="muted">That skill is not there any more; answers come without it.</p> : null}
      {chosen?.description ? <p className="muted skill-menu__about">{chosen.description}</p> : null}
    </div>
  );
}

/** The chosen skill's starter prompts, as buttons that ask them. */
export function SkillStarters({ skillId, disabled, onAsk }: { skillId: string; disabled: boolean; onAsk: (prompt: string) => void }): ReactElement | null {
  const q = useSkills();
  const skill = q.data?.skills.find((s) => s.id === skillId);
  if (!skill || skill.starterPrompts.length === 0) return null;
  return (
    <ul className="chat-welcome__examples" aria-label={`Ways to start with ${skill.name}`}>
      {skill.starterPrompts.map((p) => (
        <li key={p}>
          <button type="button" className="btn btn--secondary chat-welcome__example" disabled={disabled} onClick={() => onAsk(p)}>
            {p}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Whether a skill exists for the caller (the chat sends its id only then). */
export function useKnownSkill(id: string | undefined): boolean {
  const q = useSkills();
  return id !== undefined && (q.data?.skills.some((s) => s.id === id) ?? false);
}
