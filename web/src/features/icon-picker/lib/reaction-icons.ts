/**
 * The icons the picker opens on: Material names that suit a reaction (thumbs, hearts, faces,
 * hands, celebration, and the usual signals), in that order. Search reaches every other icon.
 */
export const REACTION_ICONS = [
  // Thumbs
  'thumb_up',
  'thumb_down',
  'thumb_up_off_alt',
  'thumb_down_off_alt',
  'thumbs_up_down',
  'recommend',
  // Hearts
  'favorite',
  'favorite_border',
  'heart_broken',
  'volunteer_activism',
  // Faces
  'sentiment_very_satisfied',
  'sentiment_satisfied_alt',
  'sentiment_satisfied',
  'sentiment_neutral',
  'sentiment_dissatisfied',
  'sentiment_very_dissatisfied',
  'mood',
  'mood_bad',
  'emoji_emotions',
  'sick',
  'face',
  // Hands
  'waving_hand',
  'front_hand',
  'back_hand',
  'pan_tool',
  'sign_language',
  'handshake',
  // Celebration and praise
  'celebration',
  'emoji_events',
  'star',
  'star_border',
  'auto_awesome',
  'local_fire_department',
  'bolt',
  // Signals
  'lightbulb',
  'psychology_alt',
  'question_mark',
  'help_outline',
  'priority_high',
  'check_circle',
  'cancel',
  'visibility',
  'hearing',
  'volume_off',
  'schedule',
  'coffee',
  'add_reaction',
] as const;

/** The reaction icons this icon set has (a set without one of them just leaves it out). */
export function reactionIcons(names: readonly string[]): readonly string[] {
  const known = new Set(names);
  return REACTION_ICONS.filter((name) => known.has(name));
}
