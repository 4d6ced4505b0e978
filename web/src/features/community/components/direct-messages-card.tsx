import { MessageCircle } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

export function DirectMessagesCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Direct Messages</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="flex items-center gap-2 text-night-700">
          <MessageCircle aria-hidden="true" className="size-5 text-night-500" />
          Direct messaging coming soon
        </p>
      </CardContent>
    </Card>
  );
}
