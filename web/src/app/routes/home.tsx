import { HomeScreen } from '../../features/home/components/home-screen';
import { StudyTodayCard, useSleepStudyTile } from '../../features/sleep/components/study-today-card';
import { useStudyProgress } from '../../features/sleep/hooks/use-study-progress';

/** / and /dashboard: the same home screen, with where she is in the sleep study. */
export function Component() {
  const sleepStudyTile = useSleepStudyTile();
  const studyPending = useStudyProgress().status === 'pending';
  return <HomeScreen study={<StudyTodayCard />} sleepStudyTile={sleepStudyTile} studyPending={studyPending} />;
}
