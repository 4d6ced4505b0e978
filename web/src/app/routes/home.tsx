import { HomeScreen } from '../../features/home/components/home-screen';
import { StudyTodayCard, useSleepStudyTile } from '../../features/sleep/components/study-today-card';

/** / and /dashboard: the same home screen, with where she is in the sleep study. */
export function Component() {
  const sleepStudyTile = useSleepStudyTile();
  return <HomeScreen study={<StudyTodayCard />} sleepStudyTile={sleepStudyTile} />;
}
